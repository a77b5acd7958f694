import type { DatasetFinding, DatasetStatistics } from '../../../src-shared/schemas/report.ts';
import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import {
  duplicateWords,
  type DuplicateResult,
  type KeptApart,
} from '../../engine/dataset/duplicates.ts';
import { DatasetScan } from '../../engine/dataset/scan.ts';
import type { EvalItem, EvalSource } from '../../engine/contamination/build.ts';
import { sampleAsItem } from '../../engine/contamination/fields.ts';
import { ContaminationScan } from '../../engine/contamination/scan.ts';
import { currentSamples, scanPage, type ScanRowRecord } from '../../store/datasets-scan.ts';
import type { SampleSource } from '../../store/datasets-rows.ts';
import { datasetsIn } from '../../store/datasets.ts';
import { keptPairs } from '../../store/kept-pairs.ts';
import type { Db } from '../../store/db.ts';
import { sampleReader } from '../datasets/row-sample.ts';
import { benchmarkChoice, contaminationMatcher } from '../contamination/matcher.ts';

/**
 * The reading and computing half of a dataset scan (see sqlite.ts): every
 * row not dropped read page by page, its sample hashed for duplicates,
 * counted for the statistics and looked up for contamination, then the
 * near-duplicate candidates verified. It only reads the database, so it runs
 * on a worker thread of its own with a read-only connection (scan-worker.ts):
 * the main thread only writes what it found. Signatures it computes are
 * handed out as it goes, for the caller to keep.
 */

/** Rows read per step. */
const PAGE = 2000;
/** How long hashing goes on before `pause` (on the main thread: the server answers). */
const READ_SLICE_MS = 12;
/**
 * Signatures handed out at most at a time: the caller writes each batch in
 * one transaction on the main thread (2,000 at once held it ~80 ms).
 */
const SIGNATURES_HANDED = 256;
/** Rows whose words are read back at a time for near-duplicate verification. */
const FETCH_PAGE = 250;
/** Rows of an evaluation set read at a time. */
const EVAL_PAGE = 2000;

export interface ScanInput {
  datasetId: string;
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
 * block of rows at a time (issuesOf).
 */
export interface ScanFound {
  /** Position -> the row's index. */
  rowIndex: number[];
  /** Position -> the row's number as the grid shows it. */
  sourceRow: number[];
  /** Rows that had dataset-check verdicts before this scan. */
  hadChecks: number[];
  duplicateGroups: DuplicateResult['groups'];
  /** Positions with duplicate or contamination issues, ascending. */
  withIssues: number[];
  statistics: DatasetStatistics;
  findings: DatasetFinding[];
}

/** A position's issues: its duplicates' and its contamination's (null: none). */
export type PositionIssues = [
  position: number,
  duplicates: Issue[] | null,
  overlaps: Issue[] | null,
];

/** The part of a scan's result that crosses threads (see ScanFound). */
export function foundOf(computed: ScanComputed): ScanFound {
  const { duplicates, contamination, findings, ...rest } = computed;
  const withIssues: number[] = [];
  for (let p = 0; p < rest.rowIndex.length; p++) {
    if (duplicates.issues.has(p) || contamination.issues.has(p)) withIssues.push(p);
  }
  return {
    ...rest,
    findings: [...findings, ...contamination.findings],
    duplicateGroups: duplicates.groups,
    withIssues,
  };
}

/** The issues of some positions (those with none left out). */
export function issuesOf(computed: ScanComputed, positions: readonly number[]): PositionIssues[] {
  const out: PositionIssues[] = [];
  for (const position of positions) {
    const duplicates = computed.duplicates.issues.get(position) ?? null;
    const overlaps = computed.contamination.issues.get(position) ?? null;
    if (duplicates || overlaps) out.push([position, duplicates, overlaps]);
  }
  return out;
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
  signatures: (rows: { row_index: number; sig: Buffer }[]) => void;
}

/** The sample in force: an accepted fix, else the one imported. */
export const currentSample =
  (imported: (row: SampleSource) => Sample) =>
  (row: Pick<ScanRowRecord, keyof SampleSource | 'fixed_json' | 'decision'>): Sample =>
    row.decision === 'accepted' && row.fixed_json !== null
      ? (JSON.parse(row.fixed_json) as Sample)
      : imported(row);

export async function computeScan(
  db: Db,
  input: ScanInput,
  hooks: ScanHooks,
): Promise<ScanComputed> {
  const { datasetId } = input;
  const scan = new DatasetScan(input.threshold);
  const contamination = new ContaminationScan(
    contaminationMatcher({
      benchmarks: benchmarkChoice(input.benchmarks, 'contamination.benchmarks'),
      against: await evaluationSets(db, datasetId, hooks.pause),
    }),
  );
  const sampleOf = currentSample(sampleReader(db, datasetId));
  const rowIndex: number[] = [];
  const sourceRow: number[] = [];
  const hadChecks: number[] = [];
  for (let after = -1; ;) {
    const page = scanPage(db, datasetId, after, PAGE);
    if (page.length === 0) break;
    let signatures: { row_index: number; sig: Buffer }[] = [];
    const handOut = (): void => {
      if (signatures.length > 0) hooks.signatures(signatures);
      signatures = [];
    };
    let deadline = performance.now() + READ_SLICE_MS;
    for (const row of page) {
      if (performance.now() > deadline) {
        handOut();
        await hooks.pause();
        deadline = performance.now() + READ_SLICE_MS;
      }
      if (row.has_checks) hadChecks.push(row.row_index);
      if (row.dropped === 1) continue;
      rowIndex.push(row.row_index);
      sourceRow.push(row.source_row);
      const stored =
        row.dedup_sig === null
          ? null
          : new Uint32Array(
              row.dedup_sig.buffer,
              row.dedup_sig.byteOffset,
              row.dedup_sig.length / 4,
            );
      const origin = row.in_tree ? row.source_row : 0;
      const sample = sampleOf(row);
      contamination.add(sample);
      const fresh = scan.add(
        sample,
        stored === null ? undefined : Uint32Array.from(stored),
        origin,
      );
      if (fresh) signatures.push({ row_index: row.row_index, sig: Buffer.from(fresh.buffer) });
      if (signatures.length >= SIGNATURES_HANDED) handOut();
    }
    handOut();
    after = page[page.length - 1]?.row_index ?? after;
    await hooks.pause();
  }

  const result = await scan.finish(
    async (positions, deliver) => {
      // Positions ascend with rows: read back in chunks, each row's words handed on at once.
      const positionOf = new Map<number, number>();
      for (let start = 0; start < positions.length; start += FETCH_PAGE) {
        positionOf.clear();
        for (const p of positions.slice(start, start + FETCH_PAGE)) {
          positionOf.set(rowIndex[p] as number, p);
        }
        for (const row of currentSamples(db, datasetId, [...positionOf.keys()])) {
          deliver(positionOf.get(row.row_index) as number, duplicateWords(sampleOf(row)));
        }
        await hooks.pause();
      }
    },
    (p) => `row ${sourceRow[p]}`,
    hooks.pause,
    keptApart(db, datasetId, rowIndex),
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
