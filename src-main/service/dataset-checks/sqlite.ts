import type { AuditBlock, Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { CONTAMINATION_CHECK, DUPLICATES_CHECK } from '../../../src-shared/checks.ts';
import type { DatasetFinding, DatasetStatistics } from '../../../src-shared/schemas/report.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import {
  duplicatesVerdict,
  duplicateWords,
  type KeptApart,
} from '../../engine/dataset/duplicates.ts';
import { DatasetScan } from '../../engine/dataset/scan.ts';
import type { EvalItem, EvalSource } from '../../engine/contamination/build.ts';
import { sampleAsItem } from '../../engine/contamination/fields.ts';
import { ContaminationScan, contaminationVerdict } from '../../engine/contamination/scan.ts';
import {
  currentSamples,
  replaceDuplicateGroups,
  saveSignatures,
  scanPage,
  setDatasetVerdicts,
  setScan,
  verdictInputs,
  type ScanRowRecord,
  type VerdictInputRecord,
} from '../../store/datasets-scan.ts';
import type { SampleSource, VerdictRecord } from '../../store/datasets-rows.ts';
import type { Db } from '../../store/db.ts';
import { datasetRecord, datasetsIn } from '../../store/datasets.ts';
import { bulkTransaction } from '../../store/bulk-writes.ts';
import { keptPairs } from '../../store/kept-pairs.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { displayedVerdict, verdictColumns } from '../datasets/row-state.ts';
import { sampleReader } from '../datasets/row-sample.ts';
import { contaminationMatcher, benchmarkChoice } from '../contamination/matcher.ts';
import type { DatasetVerdicts } from './core.ts';

/**
 * The dataset checks of a stored dataset (the app): a scan over every row
 * that is not dropped (its current sample: an accepted fix, else the import)
 * for duplicates, statistics and contamination (the settings' benchmarks and
 * the datasets marked as evaluation sets, this one aside). Each row's
 * dataset-check verdicts join its verdict in force, so the grid's filters,
 * counts and the export's verdict columns see them; the groups, statistics
 * and findings are kept for the Overview.
 *
 * A row keeps the signature the scan computed until its sample changes, so a
 * rescan after a few fixes hashes only those rows. The scan reads in pages
 * and yields between them: the server goes on answering meanwhile. When a
 * scan runs is the dataset's (see `datasets/scanner.ts`).
 */

/** Rows read per step. */
const PAGE = 2000;
/** How long the first pass hashes rows before the event loop turns. */
const READ_SLICE_MS = 12;
/** Rows whose words are read back at a time for near-duplicate verification: a short hold each. */
const FETCH_PAGE = 250;
/** Rows whose verdicts are read and written at a time. */
const WRITE_CHUNK = 128;
/**
 * How long one transaction of verdict writes goes on before the server is
 * let answer (at most one chunk beyond it).
 */
const WRITE_SLICE_MS = 12;

export interface StoredScan {
  scanned_at: string;
  threshold: number;
  /** What `contamination` looked for (see `contaminationKey`); absent before it existed. */
  contamination?: string;
  rows: number;
  statistics: DatasetStatistics;
  findings: DatasetFinding[];
}

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The sample in force: an accepted fix, else the one imported. */
const currentSample =
  (imported: (row: SampleSource) => Sample) =>
  (row: Pick<ScanRowRecord, keyof SampleSource | 'fixed_json' | 'decision'>): Sample =>
    row.decision === 'accepted' && row.fixed_json !== null
      ? (JSON.parse(row.fixed_json) as Sample)
      : imported(row);

/** Scans a dataset now; resolves when its results are stored. */
export async function scanDataset(ctx: ServiceContext, datasetId: string): Promise<void> {
  const { db } = ctx;
  const settings = ctx.settings();
  const threshold = settings.dedup.threshold;
  const scan = new DatasetScan(threshold);
  const key = contaminationKey(ctx, datasetId);
  const contamination = new ContaminationScan(
    contaminationMatcher({
      benchmarks: benchmarkChoice(settings.contamination.benchmarks, 'contamination.benchmarks'),
      against: await evaluationSets(ctx, datasetId),
    }),
  );
  const sampleOf = currentSample(sampleReader(db, datasetId));
  // Position in the scan -> the row's index and its number as the grid shows it.
  const rowIndex: number[] = [];
  const sourceRow: number[] = [];
  const hadChecks = new Set<number>();
  for (let after = -1; ;) {
    const page = scanPage(db, datasetId, after, PAGE);
    if (page.length === 0) break;
    let signatures: { row_index: number; sig: Buffer }[] = [];
    // A cache of the scan's (rebuilt when lost): committed without an fsync, which, just after
    // a large import, waited 0.5 s behind the WAL's checkpoint.
    const saveSoFar = (): void => {
      if (signatures.length > 0) {
        const slice = signatures;
        bulkTransaction(db, () => saveSignatures(db, datasetId, slice));
      }
      signatures = [];
    };
    let deadline = performance.now() + READ_SLICE_MS;
    for (const row of page) {
      if (performance.now() > deadline) {
        // A whole page hashed at once held the server up to ~150 ms (50k templated rows).
        saveSoFar();
        await nextTick();
        deadline = performance.now() + READ_SLICE_MS;
      }
      if (row.has_checks) hadChecks.add(row.row_index);
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
    }
    saveSoFar();
    after = page[page.length - 1]?.row_index ?? after;
    await nextTick();
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
        await nextTick();
      }
    },
    (p) => `row ${sourceRow[p]}`,
    nextTick,
    keptApart(db, datasetId, rowIndex),
  );
  const contaminated = contamination.finish();

  // Positions become dataset rows: in the issues' refs and in the groups. Issues are made per
  // row as its verdict is written, never held for all rows at once (at 200k duplicates that
  // alone would outgrow a small heap).
  const toRow = (p: number): number => rowIndex[p] as number;
  /** A row's dataset-check verdicts: only the checks with issues; null for none. */
  const checksOfRow = (row: number): DatasetVerdicts | null => {
    const p = positionOfRow(rowIndex, row);
    if (p === undefined) return null;
    const checks: Record<string, Verdict> = {};
    const dupes = result.duplicates.issues.get(p);
    if (dupes) {
      checks[DUPLICATES_CHECK] = duplicatesVerdict(
        dupes.map((issue: Issue) =>
          issue.ref === undefined ? issue : { ...issue, ref: toRow(issue.ref) },
        ),
      );
    }
    const overlaps = contaminated.issues.get(p);
    if (overlaps) checks[CONTAMINATION_CHECK] = contaminationVerdict(overlaps);
    return Object.keys(checks).length === 0 ? null : checks;
  };
  const touched = touchedRows(
    rowIndex.length,
    (p) => result.duplicates.issues.has(p) || contaminated.issues.has(p),
    toRow,
    hadChecks,
  );
  const writeChecks = (rows: readonly number[]): void => {
    const changed = [];
    for (const row of verdictInputs(db, datasetId, rows)) {
      const checks = checksOfRow(row.row_index);
      const audit = JSON.parse(row.audit_json ?? 'null') as AuditBlock | null;
      const reaudit = JSON.parse(row.reaudit_json ?? 'null') as AuditBlock | null;
      const next = {
        row_index: row.row_index,
        checks_json: checks === null ? null : JSON.stringify(checks),
        ...verdictColumns(displayedVerdict(audit, reaudit, row.decision, checks)),
      };
      // A rescan finds most rows as it left them: those need no write. (The columns are compared
      // too: a run that wrote a row between two scans may have folded in the verdict it found then.)
      if (!sameVerdict(row, next)) changed.push(next);
    }
    setDatasetVerdicts(db, datasetId, changed);
  };
  // Verdicts are written a slice at a time, each its own transaction, and the server answers
  // between slices: at 200k duplicate rows one transaction held the main thread for 13 s (every
  // request waited, some were dropped). Each row is read and written in the same slice, so a
  // decision or a run landing between slices is not overwritten; after a crash midway the next
  // scan writes the rows left (it compares each touched row's stored verdict). Derived data:
  // the slices commit without an fsync; the next fsync'd commit makes them durable.
  for (let start = 0; start < touched.length;) {
    const deadline = performance.now() + WRITE_SLICE_MS;
    bulkTransaction(db, () => {
      do {
        const chunk = touched.slice(start, start + WRITE_CHUNK);
        start += chunk.length;
        writeChecks(chunk);
      } while (start < touched.length && performance.now() < deadline);
    });
    await nextTick();
  }
  // Without an fsync too: a scan lost in a power cut is asked for again by the Overview.
  bulkTransaction(db, () => {
    // Deleted while it was scanned: nothing of it is kept.
    if (datasetRecord(db, datasetId)?.state !== 'ready') return;
    replaceDuplicateGroups(
      db,
      datasetId,
      result.duplicates.groups.map((group) => {
        const rows = group.rows.map(toRow);
        return {
          first_row: rows[0] as number,
          kind: group.kind,
          similarity: group.similarity,
          label_conflict: group.label_conflict ? 1 : 0,
          size: rows.length,
          rows_json: JSON.stringify(rows),
        };
      }),
    );
    const stored: StoredScan = {
      scanned_at: new Date().toISOString(),
      threshold,
      contamination: key,
      rows: rowIndex.length,
      statistics: result.statistics,
      findings: [...result.findings, ...contaminated.findings],
    };
    setScan(db, datasetId, JSON.stringify(stored));
  });
}

/** The pairs a person kept apart ("Keep both"), asked by scan positions; none: no check at all. */
function keptApart(db: Db, datasetId: string, rowIndex: readonly number[]): KeptApart | undefined {
  const pairs = new Set(keptPairs(db, datasetId).map(([a, b]) => `${a}:${b}`));
  if (pairs.size === 0) return undefined;
  return (first, row) => {
    const a = rowIndex[first] as number;
    const b = rowIndex[row] as number;
    return pairs.has(a < b ? `${a}:${b}` : `${b}:${a}`);
  };
}

/** Whether a row's stored `duplicates` verdict and verdict columns are those computed. */
function sameVerdict(
  stored: VerdictInputRecord,
  next: VerdictRecord & { checks_json: string | null },
): boolean {
  return (Object.keys(next) as (keyof typeof next)[]).every((key) => stored[key] === next[key]);
}

/** A row's position in the scan: `rowIndex` ascends, so a binary search finds it. */
function positionOfRow(rowIndex: readonly number[], row: number): number | undefined {
  let low = 0;
  let high = rowIndex.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = rowIndex[mid] as number;
    if (at === row) return mid;
    if (at < row) low = mid + 1;
    else high = mid - 1;
  }
  return undefined;
}

/** Rows whose dataset-check verdicts are written: those with issues now and those that had some. */
function touchedRows(
  positions: number,
  hasIssues: (p: number) => boolean,
  toRow: (p: number) => number,
  hadChecks: ReadonlySet<number>,
): number[] {
  const rows = new Set(hadChecks);
  for (let p = 0; p < positions; p++) if (hasIssues(p)) rows.add(toRow(p));
  return [...rows].sort((a, b) => a - b);
}

/**
 * What a scan of the dataset would look for: the benchmarks chosen and the
 * evaluation sets (other datasets marked so). A stored scan made for another
 * is out of date.
 */
export function contaminationKey(ctx: ServiceContext, datasetId: string): string {
  const evalSets = datasetsIn(ctx.db, 'ready')
    .filter((d) => d.eval_set === 1 && d.id !== datasetId)
    .map((d) => d.id)
    .sort();
  return JSON.stringify([ctx.settings().contamination.benchmarks, evalSets]);
}

/** Whether a stored scan was made under the settings and evaluation sets in force. */
export function scanFits(scan: StoredScan | null, ctx: ServiceContext, datasetId: string): boolean {
  return (
    scan !== null &&
    scan.threshold === ctx.settings().dedup.threshold &&
    scan.contamination === contaminationKey(ctx, datasetId)
  );
}

/** Rows of an evaluation set read at a time (the server answers between pages). */
const EVAL_PAGE = 2000;

/**
 * The datasets marked as evaluation sets, this one aside, as the items the
 * scan looks for: each row's current sample, dropped rows left out. An item
 * is named by its row's index in its dataset.
 */
async function evaluationSets(ctx: ServiceContext, datasetId: string): Promise<EvalSource[]> {
  const { db } = ctx;
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
      await nextTick();
    }
    sources.push({ name: dataset.name, items });
  }
  return sources;
}
