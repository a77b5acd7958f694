import { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type {
  GridRow,
  RowDetail,
  RowFilter,
  RowsPage,
  RowsQuery,
} from '../../../src-shared/owner/datasets.ts';
import type { AuditBlock, FixBlock } from '../../../src-shared/schemas/blocks.ts';
import type { Sample, TaskType } from '../../../src-shared/schemas/sample.ts';
import type { Db } from '../../store/db.ts';
import type { IndexedSearch } from '../../store/search-text.ts';
import { gridRows, pageIndices, rowRecord, type StoredGridRow } from '../../store/datasets-rows.ts';
import { cachedCount } from './count-cache.ts';
import { gridText } from './grid-text.ts';
import type { DatasetVerdicts } from '../dataset-checks/core.ts';
import { displayedVerdict, reviewedVerdict } from './row-state.ts';
import { sampleReader } from './row-sample.ts';
import { rowSearch } from './search-text.ts';
import { readableDataset } from './summary.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/** The grid's reads: a page of rows (filtered, sorted) and one row in full. */

type Json = Record<string, unknown>;

export const failedChecksOf = (stored: string): string[] => stored.split(',').filter(Boolean);

function toGridRow(record: StoredGridRow, sampleOf: ReturnType<typeof sampleReader>): GridRow {
  // What the export holds: the accepted fix's sample, else the row's own. A row stored once
  // (migration 8) shows what its sample says; older rows kept their lines.
  const text =
    record.accepted_json !== null
      ? gridText(parseJsonExact(record.accepted_json) as Sample)
      : record.sample_json === ''
        ? gridText(sampleOf(record))
        : { title: record.title, detail: record.detail };
  return {
    index: record.row_index,
    source_row: record.source_row,
    task_type: record.task_type as TaskType,
    title: text.title,
    detail: text.detail,
    passed: record.passed === null ? null : record.passed === 1,
    score: record.score,
    failed_checks: failedChecksOf(record.failed_checks),
    flagged: record.flagged === 1,
    changed: record.changed === 1,
    edited: record.edited === 1,
    unverified: record.unverified === 1,
    decision: record.decision,
    dropped: record.dropped === 1,
  };
}

/**
 * A page of the grid: the rows at `offset` in the sort's order, and how many
 * match in all. `searchIndex`: the dataset's search index, complete or being
 * built, when the connection has one (the grid worker's). The count and the
 * page are read in one transaction, so from one state of the database: read
 * apart while an import committed rows, a page held more rows than its total
 * (111 under 69), and a client paging by the total missed rows.
 */
export function datasetRows(
  db: Db,
  query: z.output<typeof RowsQuery>,
  searchIndex?: IndexedSearch,
): RowsPage {
  return db.transaction(() => rowsPage(db, query, searchIndex))();
}

function rowsPage(
  db: Db,
  query: z.output<typeof RowsQuery>,
  searchIndex: IndexedSearch | undefined,
): RowsPage {
  const dataset = readableDataset(db, query.dataset_id);
  const filter: RowFilter = query.filter;
  const search = rowSearch(db, query.dataset_id, searchIndex);
  const total = cachedCount(db, dataset, filter, search);
  const indices =
    query.offset >= total
      ? []
      : pageIndices(db, query.dataset_id, {
          filter,
          sort: query.sort,
          offset: query.offset,
          limit: query.limit,
          total,
          search,
        });
  const sampleOf = sampleReader(db, query.dataset_id);
  return {
    total,
    rows: gridRows(db, query.dataset_id, indices).map((row) => toGridRow(row, sampleOf)),
  };
}

const parse = (json: string | null): unknown => (json === null ? null : parseJsonExact(json));

export function datasetRow(db: Db, input: { dataset_id: string; index: number }): RowDetail {
  readableDataset(db, input.dataset_id);
  const record = rowRecord(db, input.dataset_id, input.index);
  if (!record) {
    throw new AppError('not_found', `dataset ${input.dataset_id} has no row ${input.index}`);
  }
  // The row's dataset-check verdicts (from the latest dataset scan) go with both audits.
  const checks = parse(record.checks_json) as DatasetVerdicts | null;
  const audit = parse(record.audit_json) as AuditBlock | null;
  const reaudit = parse(record.reaudit_json) as AuditBlock | null;
  return {
    index: record.row_index,
    source_row: record.source_row,
    original: parseJsonExact(record.original_json) as Json,
    sample: sampleReader(db, input.dataset_id)(record),
    audit: reviewedVerdict(audit, checks),
    fix: parse(record.fix_json) as FixBlock | null,
    reaudit: reaudit && displayedVerdict(reaudit, null, null, checks),
    fixed_sample: parse(record.fixed_json) as Json | null,
    decision: record.decision,
    dropped: record.dropped === 1,
  };
}
