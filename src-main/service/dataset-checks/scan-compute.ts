import { randomBytes } from 'node:crypto';
import type { DatasetFinding, DatasetStatistics } from '../../../src-shared/schemas/report.ts';
import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import {
  unpackVerifyWords,
  type DuplicateResult,
  type KeptApart,
} from '../../engine/dataset/duplicates.ts';
import { DatasetScan } from '../../engine/dataset/scan.ts';
import type { EvalItem, EvalSource } from '../../engine/contamination/build.ts';
import { sampleAsItem } from '../../engine/contamination/fields.ts';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { ContaminationScan } from '../../engine/contamination/scan.ts';
import { scanPage, scanSliceEnd } from '../../store/datasets-scan.ts';
import { datasetState, datasetsIn } from '../../store/datasets.ts';
import { keptPairs } from '../../store/kept-pairs.ts';
import type { Db } from '../../store/db.ts';
import { sampleReader } from '../datasets/row-sample.ts';
import { benchmarkChoice, passContamination } from '../contamination/matcher.ts';
import { bandPushesOn } from '../file-pass/band-pushes-on.ts';
import { orderedMap } from '../file-pass/ordered.ts';
import { addPreparedSlice } from '../file-pass/prepared-slice.ts';
import type { MatcherSpec } from '../file-pass/task-types.ts';
import { currentSample, type ScanRowsResult, type ScanWordsResult } from './scan-rows.ts';
import type { SliceRunner } from './scan-slices.ts';
import type { PackedSignatures } from '../../store/signature-cache.ts';

/**
 * The reading and computing half of a dataset scan (see sqlite.ts): every
 * row not dropped read a range at a time, its sample hashed for duplicates,
 * counted for the statistics and looked up for contamination, then the
 * near-duplicate candidates verified. It only reads the database, so it runs
 * on a worker thread of its own with a read-only connection (scan-worker.ts),
 * which hands the ranges' per-row work to slice workers (scan-slices.ts) and
 * adds their results in row order: the main thread only writes what it
 * found. Signatures it computes are handed out as it goes, for the caller to
 * keep (store/signature-cache.ts).
 */

/** The fewest rows whose words are read back at a time for near-duplicate verification. */
const FETCH_PAGE = 250;
/** Rows of an evaluation set read at a time. */
const EVAL_PAGE = 2000;

export interface ScanInput {
  datasetId: string;
  /** Threads for the per-row work: the scan's own and `workers - 1` slice workers (scan-slices.ts). */
  workers: number;
  /** Rows per slice: large on workers (few messages), small on the main thread (each holds it). */
  sliceRows: number;
  threshold: number;
  /** The settings' benchmarks, as written there (`contamination.benchmarks`). */
  benchmarks: string;
}

/**
 * What a scan found, by position in the scan (a row not dropped, ascending),
 * as it crosses threads: the issues stay where they were found (duplicates
 * are made per row on demand: held for every row at once they would outgrow
 * a small heap at 200k duplicates; 50k rows of a benchmark's questions took
 * the main thread 80-300 ms to receive as one message) and are asked for a
 * block of rows at a time, as the checks the rows store (row-checks.ts).
 */
export interface ScanFound {
  /** Position -> the row's index (typed arrays: moved across threads, not copied). */
  rowIndex: Int32Array<ArrayBuffer>;
  /** Rows that had dataset-check verdicts before this scan. */
  hadChecks: Int32Array<ArrayBuffer>;
  duplicateGroups: DuplicateResult['groups'];
  /** Positions with duplicate or contamination issues, ascending. */
  withIssues: Int32Array<ArrayBuffer>;
  statistics: DatasetStatistics;
  findings: DatasetFinding[];
}

/** The buffers of a ScanFound that move to the receiving thread. */
export const foundBuffers = (found: ScanFound): ArrayBuffer[] => [
  found.rowIndex.buffer,
  found.hadChecks.buffer,
  found.withIssues.buffer,
];

/** The part of a scan's result that crosses threads (see ScanFound). */
export function foundOf(computed: ScanComputed): ScanFound {
  const { duplicates, contamination, findings, rowIndex, hadChecks, statistics } = computed;
  const withIssues: number[] = [];
  for (let p = 0; p < rowIndex.length; p++) {
    if (duplicates.issues.has(p) || contamination.issues.has(p)) withIssues.push(p);
  }
  return {
    rowIndex: Int32Array.from(rowIndex),
    hadChecks: Int32Array.from(hadChecks),
    statistics,
    findings: [...findings, ...contamination.findings],
    duplicateGroups: duplicates.groups,
    withIssues: Int32Array.from(withIssues),
  };
}

/** What a scan found, by position in the scan (a row not dropped, ascending). */
export interface ScanComputed {
  /** Position -> the row's index. */
  rowIndex: number[];
  /** Position -> the row's number as the grid shows it. */
  sourceRow: number[];
  /** Rows that had dataset-check verdicts before this scan. */
  hadChecks: number[];
  duplicates: DuplicateResult;
  statistics: DatasetStatistics;
  findings: DatasetFinding[];
  contamination: { issues: Map<number, Issue[]>; findings: DatasetFinding[] };
}

export interface ScanHooks {
  /** Lets the event loop turn (a timer on the main thread; a no-op cost on a worker). */
  pause: () => Promise<void>;
  /** Signatures computed for rows that had none (or a stale one): the caller stores them. */
  signatures: (signatures: PackedSignatures) => void;
  /**
   * Where the slices run (see scan-slices.ts), made once the scan knows its
   * matcher: the scan's slice workers, or this thread with that matcher.
   */
  runner: (matcher: ContaminationMatcher | null) => SliceRunner;
}

/**
 * The scan: slices of rows prepared (read, parsed, hashed, counted, looked
 * up) where `hooks.runner` says, added here in row order as the CLI's file
 * pass adds its slices (addPreparedSlice), then the near-duplicate
 * candidates' words fetched the same way and the groups finished here.
 */
export async function computeScan(
  db: Db,
  input: ScanInput,
  hooks: ScanHooks,
): Promise<ScanComputed> {
  const { datasetId } = input;
  const scan = new DatasetScan(input.threshold);
  const pass = passContamination({
    benchmarks: benchmarkChoice(input.benchmarks, 'contamination.benchmarks'),
    against: await evaluationSets(db, datasetId, hooks.pause),
  });
  const contamination = new ContaminationScan(pass.matcher);
  // What a slice worker makes the same matcher from (the evaluation sets fingerprinted once).
  const spec: MatcherSpec | null = pass.matcher
    ? {
        key: randomBytes(8).toString('hex'),
        benchmarks: pass.benchmarks,
        against: pass.against,
        index: pass.matcher.sharedIndex(),
      }
    : null;
  const runner = hooks.runner(pass.matcher);
  const rowIndex: number[] = [];
  const sourceRow: number[] = [];
  const hadChecks: number[] = [];
  try {
    await orderedMap(
      sliceRanges(db, datasetId, input.sliceRows),
      runner.window,
      ([after, through]) =>
        runner.run<ScanRowsResult>({
          kind: 'rows',
          datasetId,
          after,
          through,
          threshold: input.threshold,
          contamination: spec,
        }),
      async (result) => {
        addPreparedSlice(scan, contamination, result);
        for (const row of result.hadChecks) hadChecks.push(row);
        for (let i = 0; i < result.samples; i++) {
          rowIndex.push(result.rowIndex[i] as number);
          sourceRow.push(result.sourceRow[i] as number);
        }
        hooks.signatures(freshSignatures(result));
        await hooks.pause();
      },
    );
    const wordsRows = Math.max(FETCH_PAGE, input.sliceRows / 4);
    const result = await scan.finish(
      async (positions, deliver) => {
        // Positions ascend with rows: their words read in chunks, where the slices run.
        const chunks: number[][] = [];
        for (let start = 0; start < positions.length; start += wordsRows) {
          chunks.push(positions.slice(start, start + wordsRows));
        }
        await orderedMap(
          chunks,
          runner.window,
          (chunk) =>
            runner.run<ScanWordsResult>({
              kind: 'words',
              datasetId,
              rows: chunk.map((p) => rowIndex[p] as number),
            }),
          async (words, chunk) => {
            const positionOf = new Map(chunk.map((p) => [rowIndex[p] as number, p]));
            words.rows.forEach((row, k) => {
              deliver(positionOf.get(row) as number, unpackVerifyWords(words, k));
            });
            await hooks.pause();
          },
        );
      },
      (p) => `row ${sourceRow[p]}`,
      hooks.pause,
      keptApart(db, datasetId, rowIndex),
      // The bands' pairs (~1.5 s of sorting at 1M rows) where the slices run, a few at once.
      bandPushesOn(runner),
    );
    const contaminated = contamination.finish();
    return {
      rowIndex,
      sourceRow,
      hadChecks,
      duplicates: result.duplicates,
      statistics: result.statistics,
      findings: result.findings,
      contamination: { issues: contaminated.issues, findings: contaminated.findings },
    };
  } finally {
    runner.close();
  }
}

/** While a dataset imports, how often its scan looks for the rows committed since. */
const IMPORT_POLL_MS = 50;

/**
 * The ranges (after, through] of `rows` rows each, in order, read as they
 * are asked for. Of a dataset still importing, whole ranges only, as its
 * rows are committed; the last one once the import has ended. Its state is
 * read before its rows: an import read as ended has every row committed.
 */
async function* sliceRanges(
  db: Db,
  datasetId: string,
  rows: number,
): AsyncGenerator<[number, number]> {
  for (let after = -1; ;) {
    const state = datasetState(db, datasetId);
    // Deleted (or its import failed) meanwhile: nothing more to read.
    if (state !== 'importing' && state !== 'ready') return;
    const through = scanSliceEnd(db, datasetId, after, rows);
    if (state === 'importing' && (through === null || through - after < rows)) {
      await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
      continue;
    }
    if (through === null) return;
    yield [after, through];
    after = through;
  }
}

/** A slice's fresh signatures, packed in one buffer. */
function freshSignatures(result: ScanRowsResult): PackedSignatures {
  const length = result.signatureLength;
  const words = new Uint32Array(result.fresh.length * length);
  result.fresh.forEach((i, at) =>
    words.set(result.signatures.subarray(i * length, (i + 1) * length), at * length),
  );
  return {
    rows: result.fresh.map((i) => result.rowIndex[i] as number),
    keys: result.freshKeys,
    words,
    length,
  };
}

/**
 * The datasets marked as evaluation sets, this one aside, as the items the
 * scan looks for: each row's current sample, dropped rows left out. An item
 * is named by its row's index in its dataset.
 */
async function evaluationSets(
  db: Db,
  datasetId: string,
  pause: () => Promise<void>,
): Promise<EvalSource[]> {
  const sources: EvalSource[] = [];
  for (const dataset of datasetsIn(db, 'ready')) {
    if (dataset.eval_set !== 1 || dataset.id === datasetId) continue;
    const sampleOf = currentSample(sampleReader(db, dataset.id));
    const items: EvalItem[] = [];
    for (let after = -1; ;) {
      const page = scanPage(db, dataset.id, after, EVAL_PAGE);
      if (page.length === 0) break;
      for (const row of page) {
        // Items are indexed by row: a dropped row stays a hole, so the others keep their numbers.
        while (items.length < row.row_index) items.push({ question: '' });
        items.push(row.dropped === 1 ? { question: '' } : sampleAsItem(sampleOf(row)));
      }
      after = page[page.length - 1]?.row_index ?? after;
      await pause();
    }
    sources.push({ name: dataset.name, items });
  }
  return sources;
}

/** The pairs of rows a person kept apart (not duplicates), by the scan's positions. */
function keptApart(db: Db, datasetId: string, rowIndex: readonly number[]): KeptApart | undefined {
  const pairs = new Set(keptPairs(db, datasetId).map(([a, b]) => `${a}:${b}`));
  if (pairs.size === 0) return undefined;
  return (first, row) => {
    const a = rowIndex[first] as number;
    const b = rowIndex[row] as number;
    return pairs.has(a < b ? `${a}:${b}` : `${b}:${a}`);
  };
}
