import { ContaminationMatcher } from '../../engine/contamination/match.ts';
import {
  bandPushes,
  DuplicateIndex,
  duplicateWords,
  packVerifyWords,
  verifyWords,
  type VerifyWords,
} from '../../engine/dataset/duplicates.ts';
import { VerdictTally } from '../../engine/dataset/scan.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { benchmarkSets } from '../contamination/benchmark-fingerprints.ts';
import { contaminationMatcher } from '../contamination/matcher.ts';
import { applyDatasetVerdicts, datasetChecksOnly, verdictsAt } from '../dataset-checks/core.ts';
import { checkRequest } from '../dataset-checks/check-request.ts';
import { sampleTokens } from '../billing/estimate.ts';
import { sliceSamples } from './slice-samples.ts';
import { shardRunSlice } from './shard-run-task.ts';
import { issuesOf, mergeRows } from './merge-rows-task.ts';
import { SlicePreparer } from './prepared-slice.ts';
import { statisticsRecord } from '../../engine/dataset/statistics.ts';
import type { OperationRequest } from '../runs/contract.ts';
import { runBuiltinInThread } from '../runs/builtin-run.ts';
import type {
  FileTask,
  MatcherSpec,
  BandPairsResult,
  RunSliceResult,
  RunSliceTask,
  ScanSliceResult,
  ScanSliceTask,
  SliceSource,
  LanguageSliceResult,
  LanguageSliceTask,
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
    case 'count-tokens':
      return sampleTokens(task.samples);
    case 'request-checks':
      return checkRequest(task);
    case 'file-scan':
      return scanSlice(task);
    case 'file-words':
      return wordsSlice(task);
    case 'file-language':
      return languageSlice(task);
    case 'file-run':
      return runSlice(task, signal);
    case 'shard-run':
      return shardRunSlice(task, signal);
    case 'merge-rows':
      return mergeRows(task);
    case 'band-pairs':
      return { pushes: bandPushes(task.reps, task.column, task.n) } satisfies BandPairsResult;
  }
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
        ? contaminationMatcher({ benchmarks: spec.benchmarks }, spec.index)
        : new ContaminationMatcher(
            [...benchmarkSets(spec.benchmarks), ...spec.against],
            spec.index,
          );
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
    slice.add(item.sample, item.path ? item.row : 0, undefined, item.row);
  }
  return slice.result();
}

/**
 * The wanted samples of a slice (`wanted`: indexes in it, ascending), each
 * with its index; a wanted sample that is not there (its line fails now) is
 * left out. With `lines`, only the wanted samples' lines are parsed.
 */
function wantedSamples(
  source: SliceSource,
  wanted: readonly number[],
  lines: WordsSliceTask['lines'],
): [number, Sample][] {
  const out: [number, Sample][] = [];
  if (lines) {
    // A wanted sample is the k-th of its line.
    const { line, firstOfLine } = lines;
    const ofLine = new Map<number, Sample[]>();
    for (const item of sliceSamples(source, new Set(line))) {
      if (!('sample' in item)) continue;
      const samples = ofLine.get(item.row);
      if (samples) samples.push(item.sample);
      else ofLine.set(item.row, [item.sample]);
    }
    wanted.forEach((index, k) => {
      const sample = ofLine.get(line[k] as number)?.[index - (firstOfLine[k] as number)];
      if (sample) out.push([index, sample]);
    });
    return out;
  }
  const set = new Set(wanted);
  let index = 0;
  for (const item of sliceSamples(source)) {
    if (!('sample' in item)) continue;
    if (set.has(index)) out.push([index, item.sample]);
    index++;
  }
  return out;
}

export function wordsSlice(task: WordsSliceTask): WordsSliceResult {
  const made: VerifyWords[] = [];
  const at: number[] = [];
  const seen = new Set<number>();
  for (const [index, sample] of wantedSamples(task.source, task.wanted, task.lines)) {
    at.push(index);
    made.push(verifyWords(duplicateWords(sample), seen));
  }
  return { at, ...packVerifyWords(made) };
}

/** The language sample's texts of the wanted samples, as the scan made them (`statisticsRecord`). */
export function languageSlice(task: LanguageSliceTask): LanguageSliceResult {
  const out: (string | null)[] = [];
  for (const { source, wanted, lines } of task.slices) {
    const texts = new Map<number, string | null>();
    for (const [index, sample] of wantedSamples(source, wanted, lines)) {
      texts.set(index, statisticsRecord(sample).language ?? null);
    }
    for (const index of wanted) {
      const text = texts.get(index);
      if (text === undefined) {
        throw new Error(`sample ${index} of the slice at line ${source.firstLine} is gone`);
      }
      out.push(text);
    }
  }
  return { texts: out };
}

/** Arrays one after another in one (one transfer, not one per sample), with where each ends. */
const encoder = new TextEncoder();

/**
 * A slice's output as UTF-8, in the shared buffer the task brought when it
 * fits: the thread that writes it then takes no new memory per slice (a new
 * buffer each made its GC run a full collection every ~15 slices).
 */
function encodedOutput(
  text: string,
  into: SharedArrayBuffer | null,
): Pick<RunSliceResult, 'output' | 'written'> {
  if (into) {
    const { read, written } = encoder.encodeInto(text, new Uint8Array(into));
    if (read === text.length) return { output: null, written };
  }
  return { output: encoder.encode(text), written: 0 };
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
  const result = await runBuiltinInThread(request, signal);
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
    ...encodedOutput(text, task.into),
    errors,
    counts: result.counts,
    usage: result.usage.byModel(),
    tally: tally.parts(),
    ...(history !== undefined && {
      history: { input: history, output: JSON.stringify(result.data) },
    }),
  };
}
