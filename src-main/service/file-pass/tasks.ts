import { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { DuplicateIndex, duplicateWords } from '../../engine/dataset/duplicates.ts';
import { VerdictTally } from '../../engine/dataset/scan.ts';
import {
  rowMappingOf,
  samplesOfRows,
  type RowMapping,
  type SampleRow,
} from '../../engine/rows/index.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { jsonlRowsOf } from '../../files/index.ts';
import { benchmarkSets } from '../contamination/benchmark-fingerprints.ts';
import { contaminationMatcher } from '../contamination/matcher.ts';
import {
  addCounts,
  applyDatasetVerdicts,
  datasetChecksOnly,
  recountOf,
  verdictsAt,
  withDatasetVerdicts,
  type DatasetIssues,
} from '../dataset-checks/core.ts';
import { checkPartRow } from './part-rows.ts';
import { SlicePreparer } from './prepared-slice.ts';
import type { OperationRequest } from '../runs/contract.ts';
import { runOperationInThread } from '../runs/operation.ts';
import type {
  FileTask,
  MatcherSpec,
  MergeRowsResult,
  MergeRowsTask,
  SliceIssues,
  RunSliceResult,
  RunSliceTask,
  ScanSliceResult,
  ScanSliceTask,
  SliceSource,
  WordsSliceResult,
  WordsSliceTask,
} from './task-types.ts';

/**
 * The slices of a file's pass, as an engine worker runs them (or the
 * calling thread, when no worker can start): each reads its lines, maps
 * them with the run's mapping and does all the per-row work there, so that
 * the thread that orders the slices only adds, writes and counts.
 */

export async function runFileTask(task: FileTask, signal: AbortSignal): Promise<unknown> {
  switch (task.kind) {
    case 'file-scan':
      return scanSlice(task);
    case 'file-words':
      return wordsSlice(task);
    case 'file-run':
      return runSlice(task, signal);
    case 'merge-rows':
      return mergeRows(task);
  }
}

/** The buffers of a task's result that can move to the receiving thread instead of being copied. */
export function transferablesOf(result: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  if (typeof result === 'object' && result !== null) {
    for (const value of Object.values(result)) {
      if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) out.push(value.buffer);
    }
  }
  return out;
}

const mappings = new Map<string, RowMapping>();

/** The samples (and row errors) of a slice, in order. */
export function sliceSamples(source: SliceSource): SampleRow[] {
  const key = JSON.stringify(source.mapping);
  let mapping = mappings.get(key);
  if (!mapping) mappings.set(key, (mapping = rowMappingOf(source.mapping)));
  const bytes = source.bytes;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return samplesOfRows(mapping, jsonlRowsOf(text, source.firstLine));
}

const indexes = new Map<number, DuplicateIndex>();
let matcherCache: { key: string; matcher: ContaminationMatcher | null } | undefined;

/** A worker's DuplicateIndex of a threshold, kept for its hashing (prepareSample). */
export function duplicateIndexOf(threshold: number): DuplicateIndex {
  let index = indexes.get(threshold);
  if (!index) indexes.set(threshold, (index = new DuplicateIndex(threshold)));
  return index;
}

/** The matcher a spec names, made once per run in each worker. */
export function matcherOf(spec: MatcherSpec): ContaminationMatcher | null {
  if (matcherCache?.key !== spec.key) {
    const matcher =
      spec.against.length === 0
        ? contaminationMatcher({ benchmarks: spec.benchmarks })
        : new ContaminationMatcher([...benchmarkSets(spec.benchmarks), ...spec.against]);
    matcherCache = { key: spec.key, matcher };
  }
  return matcherCache.matcher;
}

export function scanSlice(task: ScanSliceTask): ScanSliceResult {
  const matcher = task.contamination ? matcherOf(task.contamination) : null;
  const slice = new SlicePreparer(duplicateIndexOf(task.threshold), matcher);
  for (const item of sliceSamples(task.source)) {
    if (!('sample' in item)) continue;
    // The paths of one tree come from one row: never near duplicates of each other.
    slice.add(item.sample, item.path ? item.row : 0);
  }
  return slice.result();
}

export function wordsSlice(task: WordsSliceTask): WordsSliceResult {
  const wanted = new Set(task.wanted);
  const out: WordsSliceResult = [];
  let at = 0;
  for (const item of sliceSamples(task.source)) {
    if (!('sample' in item)) continue;
    if (wanted.has(at)) out.push([at, duplicateWords(item.sample)]);
    at++;
  }
  return out;
}

const encoder = new TextEncoder();

/** The dataset checks' issues of a task's rows, as `verdictsAt` reads them (by index). */
const issuesOf = (issues: SliceIssues): DatasetIssues => ({
  duplicates: { issues: new Map(issues.duplicates) },
  contamination: { active: issues.active, issues: new Map(issues.contamination) },
});

export function mergeRows(task: MergeRowsTask): MergeRowsResult {
  const checked = issuesOf(task.issues);
  const tally = new VerdictTally();
  const recount: Record<string, number> = {};
  let text = '';
  for (let i = 0; i < task.lines.length; i++) {
    const row = checkPartRow(
      task.lines[i] as string,
      task.shards[i] as { shard: number; of: number },
    );
    if ('error' in row) {
      return {
        output: new Uint8Array(0),
        tally: tally.parts(),
        recount,
        error: { index: i, what: row.error },
      };
    }
    const verdicts = verdictsAt(checked, i);
    const sample = withDatasetVerdicts(task.operation, row.sample, verdicts);
    tally.add(sample.audit ?? datasetChecksOnly(verdicts));
    addCounts(recount, recountOf(task.operation, sample));
    text += `${JSON.stringify(sample)}\n`;
  }
  return { output: encoder.encode(text), tally: tally.parts(), recount };
}

export async function runSlice(task: RunSliceTask, signal: AbortSignal): Promise<RunSliceResult> {
  const samples: Sample[] = [];
  const errors: RunSliceResult['errors'] = [];
  for (const item of sliceSamples(task.source)) {
    if ('sample' in item) samples.push(item.sample);
    else errors.push({ row: item.row, error: item.error });
  }
  const request = {
    operation: task.operation,
    samples,
    config: task.config,
    conventions: task.conventions,
  } as OperationRequest;
  const history = task.history ? JSON.stringify(samples) : undefined;
  const result = await runOperationInThread(request, { backend: builtinBackend, signal });
  const checked = issuesOf(task.issues);
  applyDatasetVerdicts(result, checked);
  const tally = new VerdictTally();
  let text = '';
  result.data.forEach((sample, i) => {
    tally.add(sample.audit ?? datasetChecksOnly(verdictsAt(checked, i)));
    text += `${JSON.stringify(sample)}\n`;
  });
  return {
    samples: samples.length,
    output: encoder.encode(text),
    errors,
    counts: result.counts,
    usage: result.usage.byModel(),
    tally: tally.parts(),
    ...(history !== undefined && {
      history: { input: history, output: JSON.stringify(result.data) },
    }),
  };
}
