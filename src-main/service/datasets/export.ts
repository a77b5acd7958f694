import { setImmediate as nextTurn } from 'node:timers/promises';
import { extname } from 'node:path';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { ExportRequest } from '../../../src-shared/owner/datasets.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { writeOasstPaths } from '../../engine/shapes/oasst-paths.ts';
import type { Db } from '../../store/db.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { exportPage, type ExportRecord } from '../../store/datasets-rows.ts';
import {
  formatFromPath,
  writeRowsLike,
  type SourceLayout,
  type SourcedRow,
} from '../../files/index.ts';
import { rowWriter } from './row-sample.ts';
import { failedChecksOf } from './rows.ts';
import { readyDataset } from './summary.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/** Rows read from SQLite per step of an export. */
export const EXPORT_PAGE_ROWS = 1000;
/** Rows kept as they were (their fix cannot be written back) that an export lists. */
export const KEPT_LISTED = 100;

export interface ExportDeps {
  /** Where exports without a path are written (the browser transport). */
  tempDir: string;
  /** Makes a written file downloadable; returns its URL path. */
  downloads: { register(path: string, fileName: string): string };
}

type Row = Record<string, unknown>;

interface ExportOptions {
  /** The source file's format. */
  format: DatasetRecord['format'];
  includeVerdicts: boolean;
  dropFlagged: boolean;
  /** The first KEPT_LISTED rows exported as they were, and how many there were in all. */
  kept: KeptRow[];
  keptRows: number;
}

/** A row whose accepted fix could not be written back: exported as it was. */
export interface KeptRow {
  /** The dataset row (from 0). */
  row: number;
  /** Its row in the source file (from 1), as the grid and the review name it. */
  source_row: number;
  message: string;
}

/** Notes a row exported as it was (listed while fewer than KEPT_LISTED are). */
function keep(options: ExportOptions, record: ExportRecord, message: string): void {
  options.keptRows++;
  if (options.kept.length < KEPT_LISTED) {
    options.kept.push({ row: record.row_index, source_row: record.source_row, message });
  }
}

/**
 * The row as exported: the accepted fix written back in the original schema,
 * else the original (with its source text, so it goes out byte for byte). A
 * fix that cannot be written back without guessing leaves the row as it was,
 * and the export says so.
 */
function exportedRow(
  record: ExportRecord,
  write: (sample: Sample, original: Row) => Row,
  options: ExportOptions,
): SourcedRow {
  const original = parseJsonExact(record.original_json) as Row;
  // The source text: a JSON Lines row's line is its original_json; a CSV row keeps its record.
  const raw =
    options.format === 'jsonl'
      ? record.original_json
      : options.format === 'csv'
        ? record.source_raw
        : undefined;
  let row = original;
  let changed = false;
  if (record.decision === 'accepted' && record.fixed_json !== null) {
    try {
      row = write(parseJsonExact(record.fixed_json) as Sample, original);
      changed = true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      keep(options, record, error.message);
    }
  }
  if (options.includeVerdicts) {
    row = withVerdicts(row, [record]);
    changed = true;
  }
  return { value: row, raw, changed };
}

/**
 * The verdict columns of a source row: of its one dataset row, or of all the
 * paths of a tree (passed when every path passed, failed when one failed;
 * the failed checks of all; flagged when one is; the decision they share,
 * else `mixed`).
 */
function withVerdicts(row: Row, records: readonly ExportRecord[]): Row {
  const passed = records.some((r) => r.passed === 0)
    ? false
    : records.every((r) => r.passed === 1)
      ? true
      : null;
  const failed = new Set(records.flatMap((r) => failedChecksOf(r.failed_checks)));
  const decisions = new Set(records.map((r) => r.decision));
  return {
    ...row,
    svc_passed: passed,
    svc_failed_checks: [...failed].join(','),
    svc_flagged: records.some((r) => r.flagged === 1),
    svc_decision: decisions.size === 1 ? [...decisions][0] : 'mixed',
  };
}

/**
 * A tree read along every path, written once: the accepted repairs of all its
 * paths go into the one tree (see `writeOasstPaths`); a path whose repair
 * cannot be written (another path repaired a shared message differently,
 * turns merged in a shared tree) is listed as kept. Left out when every path
 * is left out (dropped, or flagged with that option); a dropped path's
 * repair is not written.
 */
function exportedTree(records: readonly ExportRecord[], options: ExportOptions): SourcedRow | null {
  const left = (r: ExportRecord): boolean =>
    r.dropped === 1 || (options.dropFlagged && r.flagged === 1);
  if (records.every(left)) return null;
  const first = records[0] as ExportRecord;
  const original = parseJsonExact(first.original_json) as Row;
  const parts = records.map((record) => ({
    route: JSON.parse(record.source_path ?? '[]') as number[],
    sample:
      record.decision === 'accepted' && record.fixed_json !== null && record.dropped === 0
        ? (parseJsonExact(record.fixed_json) as Sample)
        : null,
    label: `row ${record.row_index}`,
  }));
  const written = writeOasstPaths(original, parts);
  written.problems.forEach((problem, i) => {
    if (problem !== undefined) {
      keep(options, records[i] ?? first, `the repair cannot be written back: ${problem}`);
    }
  });
  const raw = options.format === 'jsonl' ? first.original_json : undefined;
  const changed = written.row !== original || options.includeVerdicts;
  const value = options.includeVerdicts ? withVerdicts(written.row, records) : written.row;
  return { value, raw, changed };
}

async function* exportedRows(
  db: Db,
  dataset: DatasetRecord,
  options: ExportOptions,
): AsyncGenerator<SourcedRow> {
  const write = rowWriter(dataset);
  // The paths of one tree, consecutive rows: written together once the next source row starts.
  let tree: ExportRecord[] = [];
  const endTree = (): SourcedRow | null => {
    const done = tree.length > 0 ? exportedTree(tree, options) : null;
    tree = [];
    return done;
  };
  // Keyset pages, not one open statement: other queries (a run writing) go on meanwhile.
  for (let after = -1; ;) {
    const page = exportPage(db, dataset.id, after, EXPORT_PAGE_ROWS);
    if (page.length === 0) break;
    for (const record of page) {
      if (tree.length > 0 && tree[0]?.source_row !== record.source_row) {
        const done = endTree();
        if (done) yield done;
      }
      if (record.source_path !== null) {
        tree.push(record);
        continue;
      }
      if (record.dropped === 1) continue;
      if (options.dropFlagged && record.flagged === 1) continue;
      yield exportedRow(record, write, options);
    }
    after = page[page.length - 1]?.row_index ?? after;
    await nextTurn();
  }
  const done = endTree();
  if (done) yield done;
}

/** A dataset's name as a file name, without an extension of a format read. */
export function safeName(name: string): string {
  const stem = formatFromPath(name) === undefined ? name : name.slice(0, -extname(name).length);
  return stem.replace(/[^\w.-]+/g, '_') || 'dataset';
}

/** What an export wrote: its rows, its bytes, the rows kept as they were (listed up to KEPT_LISTED). */
export interface WrittenExport {
  rows: number;
  bytes: number;
  kept: KeptRow[];
  /** How many rows were kept as they were, listed or not. */
  keptRows: number;
}

/** An export's job, as it crosses to the thread that writes it (export-thread.ts). */
export interface ExportJob {
  datasetId: string;
  path: string;
  format: z.output<typeof ExportRequest>['format'];
  includeVerdicts: boolean;
  dropFlagged: boolean;
  /** Replace a file at `path`; false: refuse one, even one that appears while the export is written. */
  replace?: boolean;
}

/**
 * Writes a dataset in its original schema to `path`, in the calling thread:
 * accepted fixes written into the fields they came from, every other row as
 * imported. In the source's own format an unchanged row is its source text
 * byte for byte (a JSON Lines line, a CSV record; Parquet keeps the source's
 * column types); see `writeRowsLike`. Options: the verdict columns
 * `svc_passed`, `svc_failed_checks` (comma-separated), `svc_flagged`,
 * `svc_decision`; and leaving out rows whose latest fix is flagged. Streamed
 * from SQLite.
 */
export async function writeExport(db: Db, job: ExportJob): Promise<WrittenExport> {
  const dataset = readyDataset(db, job.datasetId);
  const options: ExportOptions = {
    format: dataset.format,
    includeVerdicts: job.includeVerdicts,
    dropFlagged: job.dropFlagged,
    kept: [],
    keptRows: 0,
  };
  const layout =
    dataset.layout_json === null ? null : (JSON.parse(dataset.layout_json) as SourceLayout);
  const written = await writeRowsLike(
    job.path,
    job.format,
    exportedRows(db, dataset, options),
    layout,
    { replace: job.replace ?? true },
  );
  return {
    rows: written.rows,
    bytes: written.bytes,
    kept: options.kept,
    keptRows: options.keptRows,
  };
}
