import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import {
  bandPushes,
  duplicateWords,
  packVerifyWords,
  verifyWords,
  type PackedVerifyWords,
  type VerifyWords,
} from '../../engine/dataset/duplicates.ts';
import { currentSamples, scanPage, type ScanRowRecord } from '../../store/datasets-scan.ts';
import { sampleKey, storedSignatures } from '../../store/signature-cache.ts';
import type { SampleSource } from '../../store/datasets-rows.ts';
import type { Db } from '../../store/db.ts';
import { sampleReader } from '../datasets/row-sample.ts';
import { SlicePreparer } from '../file-pass/prepared-slice.ts';
import { duplicateIndexOf } from '../file-pass/tasks.ts';
import type {
  BandPairsResult,
  BandPairsTask,
  MatcherSpec,
  ScanSliceResult,
} from '../file-pass/task-types.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/**
 * The per-row work of a dataset scan, a range of stored rows at a time, as
 * a scan's slice worker runs it (scan-slice-worker.ts, a read-only
 * connection each) or the scan's own thread: each row not dropped read, its
 * current sample made, hashed for duplicates (unless the signature kept of
 * it is current: store/signature-cache.ts), recorded for the statistics and looked up for
 * contamination (SlicePreparer, the CLI's file pass shares it). Then, for
 * near-duplicate verification, the words of the rows asked for.
 */

/** Rows read per query. */
const PAGE = 2000;

/** The rows (after, through] of a dataset, in row order. */
export interface ScanRowsTask {
  kind: 'rows';
  datasetId: string;
  after: number;
  through: number;
  threshold: number;
  contamination: MatcherSpec | null;
}

/** A range's prepared samples (ScanSliceResult, one per row not dropped) and its rows. */
export interface ScanRowsResult extends ScanSliceResult {
  /** Each sample's row index and its row's number as the grid shows it. */
  rowIndex: number[];
  sourceRow: number[];
  /** Rows of the range (dropped ones too) that had dataset-check verdicts before. */
  hadChecks: number[];
  /** The samples (by index in the range) whose signatures were computed: to be stored. */
  fresh: number[];
  /** The key of each fresh sample (store/signature-cache.ts sampleKey). */
  freshKeys: number[];
}

/** The words near-duplicate verification compares, of some rows (ascending). */
export interface ScanWordsTask {
  kind: 'words';
  datasetId: string;
  rows: number[];
}

/**
 * The rows' words, packed (`rows[k]` is row k's index), in the order asked
 * (content names are each given once, by the first row that has them).
 */
export interface ScanWordsResult extends PackedVerifyWords {
  rows: number[];
}

/** A task of a scan's slices: a range of rows, rows' words, or an LSH band's pairs (`bandPushes`). */
export type ScanTask = ScanRowsTask | ScanWordsTask | BandPairsTask;

/**
 * Runs one of a scan's tasks on this thread (the scan's own or a slice
 * worker's); a range of rows is matched with `matcherFor`'s matcher.
 */
export function runScanTask(
  db: Db,
  task: ScanTask,
  matcherFor: (task: ScanRowsTask) => ContaminationMatcher | null,
): ScanRowsResult | ScanWordsResult | BandPairsResult {
  switch (task.kind) {
    case 'rows':
      return scanRows(db, task, matcherFor(task));
    case 'words':
      return scanWords(db, task);
    case 'band-pairs':
      return { pushes: bandPushes(task.reps, task.column, task.n) };
  }
}

/** The sample in force: an accepted fix, else the one imported. */
export const currentSample =
  (imported: (row: SampleSource) => Sample) =>
  (row: Pick<ScanRowRecord, keyof SampleSource | 'fixed_json' | 'decision'>): Sample =>
    row.decision === 'accepted' && row.fixed_json !== null
      ? (parseJsonExact(row.fixed_json) as Sample)
      : imported(row);

export function scanRows(
  db: Db,
  task: ScanRowsTask,
  matcher: ContaminationMatcher | null,
): ScanRowsResult {
  const slice = new SlicePreparer(duplicateIndexOf(task.threshold), matcher);
  const sampleOf = currentSample(sampleReader(db, task.datasetId));
  const rowIndex: number[] = [];
  const sourceRow: number[] = [];
  const hadChecks: number[] = [];
  const fresh: number[] = [];
  const freshKeys: number[] = [];
  for (let after = task.after; after < task.through;) {
    const page = scanPage(db, task.datasetId, after, PAGE, task.through);
    if (page.length === 0) break;
    const last = (page.at(-1) as { row_index: number }).row_index;
    const kept = storedSignatures(db, task.datasetId, after, last);
    for (const row of page) {
      if (row.has_checks) hadChecks.push(row.row_index);
      if (row.dropped === 1) continue;
      const key = sampleKey(row);
      const sig = kept.get(row.row_index);
      // A signature of the sample in force only: one of a sample since changed is made again.
      const stored =
        sig === undefined || sig.key !== key
          ? undefined
          : Uint32Array.from(
              new Uint32Array(sig.sig.buffer, sig.sig.byteOffset, sig.sig.length / 4),
            );
      // The paths of one tree come from one row: never near duplicates of each other.
      const origin = row.in_tree ? row.source_row : 0;
      if (slice.add(sampleOf(row), origin, stored)) {
        fresh.push(rowIndex.length);
        freshKeys.push(key);
      }
      rowIndex.push(row.row_index);
      sourceRow.push(row.source_row);
    }
    after = last;
  }
  return { ...slice.result(), rowIndex, sourceRow, hadChecks, fresh, freshKeys };
}

/** What verification compares of the rows, made here (a slice worker), in the order given. */
export function scanWords(db: Db, task: ScanWordsTask): ScanWordsResult {
  const sampleOf = currentSample(sampleReader(db, task.datasetId));
  const seen = new Set<number>();
  const rows: number[] = [];
  const made: VerifyWords[] = [];
  for (const row of currentSamples(db, task.datasetId, task.rows)) {
    rows.push(row.row_index);
    made.push(verifyWords(duplicateWords(sampleOf(row)), seen));
  }
  return { rows, ...packVerifyWords(made) };
}
