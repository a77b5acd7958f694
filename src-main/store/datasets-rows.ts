import type { RowFilter } from '../../src-shared/owner/datasets.ts';
import type { Db } from './db.ts';
import {
  pageSegments,
  rowWhere as filterWhere,
  searchAloneCount,
  searchAlonePage,
  source,
  type RowSort,
  type RowWhere,
} from './datasets-filter.ts';
import { withSearchText, type RowSearch } from './search-text.ts';
import { composedPlucked, plucked, statement } from './statements.ts';

/** The rows of a dataset (`dataset_rows`, migration 3): insert, page, read, update. */

export interface NewRowRecord {
  row_index: number;
  source_row: number;
  task_type: string;
  search_text: string;
  title: string;
  detail: string;
  /** The row as read: for JSON Lines the line itself, byte for byte. */
  original_json: string;
  sample_json: string;
  /** A CSV row's raw record (its exact text), for a faithful export; null otherwise. */
  source_raw?: string | null;
  /** A path of a tree read along every path: its route (JSON array); null otherwise. */
  source_path?: string | null;
}

/**
 * Where a row's sample comes from: `sample_json` for rows imported before
 * migration 8, else (`sample_json` = '') the original as read (`lean_original`)
 * mapped again; `source_path` picks a tree's path. See service/datasets/row-sample.ts.
 */
export interface SampleSource {
  sample_json: string;
  lean_original: string | null;
  source_path: string | null;
}

/**
 * A row's dataset-check verdicts (NULL: none), for a SELECT list over
 * `dataset_rows`: they are kept in a table of their own (migration 13).
 */
export const CHECKS_JSON = `(SELECT checks_json FROM dataset_row_checks c
  WHERE c.dataset_id = dataset_rows.dataset_id AND c.row_index = dataset_rows.row_index)
  AS checks_json`;

/** The columns of a SampleSource, for a SELECT list. */
export const SAMPLE_SOURCE =
  "sample_json, CASE WHEN sample_json = '' THEN original_json END AS lean_original, source_path";

/** What the grid shows of a row. */
export interface GridRowRecord {
  row_index: number;
  source_row: number;
  task_type: string;
  title: string;
  detail: string;
  passed: 0 | 1 | null;
  score: number | null;
  failed_checks: string;
  flagged: 0 | 1;
  changed: 0 | 1;
  unverified: 0 | 1;
  decision: 'accepted' | 'rejected' | null;
  dropped: 0 | 1;
}

export interface RowRecord extends GridRowRecord, SampleSource {
  checks_json: string | null;
  original_json: string;
  audit_json: string | null;
  fix_json: string | null;
  reaudit_json: string | null;
  fixed_json: string | null;
}

/** The columns a run rewrites on each row it finishes. */
export type RowResultRecord = Pick<
  RowRecord,
  | 'row_index'
  | 'audit_json'
  | 'fix_json'
  | 'reaudit_json'
  | 'fixed_json'
  | 'passed'
  | 'score'
  | 'failed_checks'
  | 'flagged'
  | 'changed'
  | 'unverified'
  | 'decision'
> & {
  error_codes: string;
  warning_codes: string;
  warning_checks: string;
};

const GRID_COLUMNS =
  'row_index, source_row, task_type, title, detail, passed, score, failed_checks, flagged, ' +
  'changed, unverified, decision, dropped';

/** Inserts rows; the caller wraps a batch in one transaction. */
export function insertRows(db: Db, datasetId: string, rows: readonly NewRowRecord[]): void {
  const insert = statement(
    db,
    `INSERT INTO dataset_rows (dataset_id, row_index, source_row, task_type, search_text, title,
       detail, original_json, sample_json, source_raw, source_path)
     VALUES (@dataset_id, @row_index, @source_row, @task_type, @search_text, @title, @detail,
       @original_json, @sample_json, @source_raw, @source_path)`,
  );
  for (const row of rows) {
    insert.run({ dataset_id: datasetId, source_raw: null, source_path: null, ...row });
  }
}

/** A row as an import stores it: the source as read and the narrow columns the grid needs. */
export interface LeanRowRecord {
  row_index: number;
  source_row: number;
  task_type: string;
  /** The row as read: a JSON Lines line byte for byte, other formats as JSON. */
  original_json: string;
  source_raw: string | null;
  source_path: string | null;
}

/**
 * The import's insert: each row stored once. The sample, the grid's title
 * and detail and the search text are left empty ('') and derived from the
 * original when read (see service/datasets/row-sample.ts); rows imported
 * before migration 8 keep theirs. One statement for the whole import; the
 * caller wraps each batch in a transaction.
 */
export function leanRowInserter(db: Db, datasetId: string): (row: LeanRowRecord) => void {
  const insert = statement(
    db,
    `INSERT INTO dataset_rows (dataset_id, row_index, source_row, task_type, search_text, title,
       detail, original_json, sample_json, source_raw, source_path)
     VALUES (?, ?, ?, ?, '', '', '', ?, '', ?, ?)`,
  );
  return (row) => {
    insert.run(
      datasetId,
      row.row_index,
      row.source_row,
      row.task_type,
      row.original_json,
      row.source_raw,
      row.source_path,
    );
  };
}

/**
 * The filter's WHERE; a text search is answered from the dataset's index
 * when `search` has one (complete or being built).
 */
function rowWhere(datasetId: string, filter: RowFilter | undefined, search?: RowSearch): RowWhere {
  const index = filter?.search !== undefined && filter.search !== '' ? search?.index : undefined;
  return filterWhere(datasetId, filter, index);
}

/** Runs the queries of `where`: when it scans for a text, with the search text of lean rows. */
function reading<T>(
  db: Db,
  datasetId: string,
  where: RowWhere,
  search: RowSearch | undefined,
  read: () => T,
): T {
  return where.searches || where.derivesText
    ? withSearchText(db, datasetId, search?.leanText, read)
    : read();
}

/**
 * How many rows match the filter (the same WHERE as the page). `search`:
 * what a text search needs (see search-text.ts); without it, a search that
 * scans rows stored once (migration 8) throws.
 */
export function countRows(
  db: Db,
  datasetId: string,
  filter?: RowFilter,
  search?: RowSearch,
): number {
  const where = rowWhere(datasetId, filter, search);
  const { sql, params } = where.searchAlone
    ? searchAloneCount(where.searchAlone)
    : { sql: `SELECT count(*) FROM ${source(where)} WHERE ${where.sql}`, params: where.params };
  return reading(
    db,
    datasetId,
    where,
    search,
    () => composedPlucked(db, sql).get(...params) as number,
  );
}

/**
 * The indices of one page of matching rows, in the sort's order: the parts
 * of the order before the offset are counted, the part(s) it falls in read
 * in order from their index. `total`: the count of matching rows, when known.
 */
export function pageIndices(
  db: Db,
  datasetId: string,
  query: {
    filter?: RowFilter;
    sort: RowSort;
    offset: number;
    limit: number;
    total?: number;
    /** What a text search needs (see countRows). */
    search?: RowSearch;
  },
): number[] {
  const where = rowWhere(datasetId, query.filter, query.search);
  return reading(db, datasetId, where, query.search, () => readPage(db, datasetId, where, query));
}

function readPage(
  db: Db,
  datasetId: string,
  where: RowWhere,
  query: Parameters<typeof pageIndices>[2],
): number[] {
  const rowOrder = query.sort.column === 'index';
  if (rowOrder && where.searchAlone) {
    const { sql, params } = searchAlonePage(where.searchAlone, query.sort.direction);
    return composedPlucked(db, sql).all(...params, query.limit, query.offset) as number[];
  }
  if (rowOrder && where.sql === 'dataset_id = ?' && query.total !== undefined) {
    const dense = denseIndices(db, datasetId, query.total, query);
    if (dense) return dense;
  }
  const taskTypes =
    query.sort.column === 'task_type'
      ? (JSON.parse(
          (plucked(db, 'SELECT task_types FROM datasets WHERE id = ?').get(datasetId) as
            string | undefined) ?? '[]',
        ) as string[])
      : [];
  const segments = pageSegments(where, query.sort, taskTypes);
  const count = (sql: string, params: unknown[]): number =>
    composedPlucked(db, sql).get(...params) as number;
  const storedCount = (column: 'scored' | 'with_status'): number =>
    (plucked(db, `SELECT ${column} FROM dataset_sort_counts WHERE dataset_id = ?`).get(
      datasetId,
    ) as number | undefined) ?? 0;
  const out: number[] = [];
  let skip = query.offset;
  for (const [i, segment] of segments.entries()) {
    if (out.length >= query.limit) break;
    const last = i === segments.length - 1;
    if (skip > 0 && !last) {
      const n =
        segment.stored !== undefined
          ? storedCount(segment.stored)
          : segment.countSql === undefined
            ? (query.total ?? countRows(db, datasetId, query.filter, query.search)) -
              segments.reduce(
                (sum, other) =>
                  other === segment || other.countSql === undefined
                    ? sum
                    : sum +
                      (other.stored !== undefined
                        ? storedCount(other.stored)
                        : count(other.countSql, other.params)),
                0,
              )
            : count(segment.countSql, segment.params);
      if (skip >= n) {
        skip -= n;
        continue;
      }
    }
    const rows = composedPlucked(db, segment.sql).all(
      ...segment.params,
      query.limit - out.length,
      skip,
    ) as number[];
    out.push(...rows);
    skip = 0;
  }
  return out;
}

/**
 * A page of every row in row order, when the indices are 0..n-1 (as an
 * import numbers them; rows only go with their dataset): the page at offset k
 * starts at index k (ascending) or n-1-k, a seek rather than a walk past k
 * rows. Undefined when the indices are not dense: the page is read as any other.
 */
function denseIndices(
  db: Db,
  datasetId: string,
  total: number,
  page: { sort: RowSort; offset: number; limit: number },
): number[] | undefined {
  const bounds = statement(
    db,
    `SELECT (SELECT min(row_index) FROM dataset_rows WHERE dataset_id = ?) AS low,
         (SELECT max(row_index) FROM dataset_rows WHERE dataset_id = ?) AS high`,
  ).get(datasetId, datasetId) as { low: number | null; high: number | null };
  // Distinct indices from 0 to total - 1 with total rows: every one is there.
  if (bounds.low !== 0 || bounds.high !== total - 1) return undefined;
  const end = Math.min(total, page.offset + page.limit);
  const out: number[] = [];
  for (let k = page.offset; k < end; k++) {
    out.push(page.sort.direction === 'desc' ? total - 1 - k : k);
  }
  return out;
}

/** Every matching index, ascending (a run's scope). `search`: see countRows. */
export function matchingIndices(
  db: Db,
  datasetId: string,
  filter?: RowFilter,
  search?: RowSearch,
): number[] {
  const where = rowWhere(datasetId, filter, search);
  const sql = `SELECT row_index FROM ${source(where)} WHERE ${where.sql} ORDER BY row_index`;
  return reading(
    db,
    datasetId,
    where,
    search,
    () => composedPlucked(db, sql).all(...where.params) as number[],
  );
}

/**
 * A grid row as stored: a row imported since migration 8 has its title and detail derived.
 * `edited`: its candidate is a person's edit (the fix block says so), not the engine's fix.
 */
export type StoredGridRow = GridRowRecord &
  SampleSource & {
    edited: 0 | 1;
    /** The fixed sample when its fix is accepted (what the export holds), else null. */
    accepted_json: string | null;
  };

/** Grid rows by index, in the order asked (missing ones left out). */
export function gridRows(db: Db, datasetId: string, indices: readonly number[]): StoredGridRow[] {
  if (indices.length === 0) return [];
  // A page's rows only (200 at most) read their fix block for the flag: no column to keep.
  const rows = statement(
    db,
    `SELECT ${GRID_COLUMNS}, ${SAMPLE_SOURCE},
         json_extract(fix_json, '$.edited') IS 1 AS edited,
         CASE WHEN decision = 'accepted' THEN fixed_json END AS accepted_json
       FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))`,
  ).all(datasetId, JSON.stringify(indices)) as StoredGridRow[];
  const byIndex = new Map(rows.map((row) => [row.row_index, row]));
  return indices.flatMap((index) => byIndex.get(index) ?? []);
}

/**
 * How many bytes of JSON a row's full detail carries (the row as imported,
 * its sample, its blocks, its fixed sample), read from the records' headers:
 * `octet_length` does not load a value's pages. Undefined: no such row.
 */
export function rowDetailBytes(db: Db, datasetId: string, index: number): number | undefined {
  return plucked(
    db,
    `SELECT octet_length(original_json) + octet_length(sample_json)
         + ifnull(octet_length(audit_json), 0) + ifnull(octet_length(fix_json), 0)
         + ifnull(octet_length(reaudit_json), 0) + ifnull(octet_length(fixed_json), 0)
       FROM dataset_rows WHERE dataset_id = ? AND row_index = ?`,
  ).get(datasetId, index) as number | undefined;
}

export function rowRecord(db: Db, datasetId: string, index: number): RowRecord | undefined {
  return statement(
    db,
    `SELECT ${GRID_COLUMNS}, original_json, ${SAMPLE_SOURCE}, audit_json, fix_json,
         reaudit_json, fixed_json, ${CHECKS_JSON}
       FROM dataset_rows WHERE dataset_id = ? AND row_index = ?`,
  ).get(datasetId, index) as RowRecord | undefined;
}

/** What an edit reads of its row: the sample, the audit it keeps, the dataset checks. */
export type EditInputRecord = Pick<
  RowRecord,
  'row_index' | 'source_row' | keyof SampleSource | 'audit_json' | 'checks_json'
>;

/**
 * `rowRecord` less what an edit replaces: a row edited before holds its last
 * edit twice over (the candidate, and the patch's old and new values), which
 * for a document of 20 MB was 60 MB more to read.
 */
export function editInput(db: Db, datasetId: string, index: number): EditInputRecord | undefined {
  return statement(
    db,
    `SELECT row_index, source_row, ${SAMPLE_SOURCE}, audit_json, ${CHECKS_JSON}
       FROM dataset_rows WHERE dataset_id = ? AND row_index = ?`,
  ).get(datasetId, index) as EditInputRecord | undefined;
}

/** What a run reads of each row: the sample and the blocks it may keep. */
export type RunInputRecord = Pick<
  RowRecord,
  | 'row_index'
  | keyof SampleSource
  | 'audit_json'
  | 'fix_json'
  | 'reaudit_json'
  | 'fixed_json'
  | 'decision'
  | 'checks_json'
>;

export function runInputs(db: Db, datasetId: string, indices: readonly number[]): RunInputRecord[] {
  if (indices.length === 0) return [];
  return statement(
    db,
    `SELECT row_index, ${SAMPLE_SOURCE}, audit_json, fix_json, reaudit_json, fixed_json,
         decision, ${CHECKS_JSON}
       FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))
       ORDER BY row_index`,
  ).all(datasetId, JSON.stringify(indices)) as RunInputRecord[];
}

/** Writes a run's results for rows; the caller wraps a batch in one transaction. */
export function updateRowResults(
  db: Db,
  datasetId: string,
  rows: readonly RowResultRecord[],
): void {
  const update = statement(
    db,
    `UPDATE dataset_rows SET audit_json = @audit_json, fix_json = @fix_json,
       reaudit_json = @reaudit_json, fixed_json = @fixed_json, passed = @passed, score = @score,
       failed_checks = @failed_checks, flagged = @flagged, changed = @changed,
       unverified = @unverified, decision = @decision, error_codes = @error_codes,
       warning_codes = @warning_codes, warning_checks = @warning_checks
     WHERE dataset_id = @dataset_id AND row_index = @row_index`,
  );
  for (const row of rows) update.run({ dataset_id: datasetId, ...row });
}

/** The rows among `indices` (ascending) whose fix changed something: what a fix decision sets. */
export function changedAmong(db: Db, datasetId: string, indices: readonly number[]): number[] {
  if (indices.length === 0) return [];
  return plucked(
    db,
    `SELECT row_index FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?)) AND changed = 1
       ORDER BY row_index`,
  ).all(datasetId, JSON.stringify(indices)) as number[];
}

/** What deciding needs of a row whose verdict depends on the decision (it has a reaudit). */
export type DecidedRecord = Pick<
  RowRecord,
  'row_index' | 'audit_json' | 'reaudit_json' | 'checks_json'
>;

/** The rows among `indices` that have a reaudit, with their two verdicts. */
export function reauditedRows(
  db: Db,
  datasetId: string,
  indices: readonly number[],
): DecidedRecord[] {
  if (indices.length === 0) return [];
  return statement(
    db,
    `SELECT row_index, audit_json, reaudit_json, ${CHECKS_JSON} FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))
         AND reaudit_json IS NOT NULL`,
  ).all(datasetId, JSON.stringify(indices)) as DecidedRecord[];
}

/** Sets the decision of the rows by index; the caller wraps it in a transaction. */
export function setDecision(
  db: Db,
  datasetId: string,
  decision: 'accepted' | 'rejected' | null,
  indices: readonly number[],
): void {
  const update = statement(
    db,
    `UPDATE dataset_rows SET decision = ?
     WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))`,
  );
  for (let start = 0; start < indices.length; start += 10_000) {
    update.run(decision, datasetId, JSON.stringify(indices.slice(start, start + 10_000)));
  }
}

/**
 * Drops rows (or restores them) by index; returns how many changed. A dropped
 * row leaves the duplicate groups: its signature is kept, the next scan
 * leaves it out. The caller wraps it in a transaction.
 */
export function setDropped(
  db: Db,
  datasetId: string,
  dropped: boolean,
  indices: readonly number[],
): number {
  const update = statement(
    db,
    `UPDATE dataset_rows SET dropped = ?
     WHERE dataset_id = ? AND dropped != ? AND row_index IN (SELECT value FROM json_each(?))`,
  );
  let changed = 0;
  for (let start = 0; start < indices.length; start += 10_000) {
    const slice = JSON.stringify(indices.slice(start, start + 10_000));
    changed += update.run(dropped ? 1 : 0, datasetId, dropped ? 1 : 0, slice).changes;
  }
  return changed;
}

export type VerdictRecord = Pick<
  RowResultRecord,
  | 'row_index'
  | 'passed'
  | 'score'
  | 'failed_checks'
  | 'unverified'
  | 'error_codes'
  | 'warning_codes'
  | 'warning_checks'
>;

/** Rewrites the verdict columns of rows; the caller wraps it in a transaction. */
export function updateVerdicts(db: Db, datasetId: string, rows: readonly VerdictRecord[]): void {
  const update = statement(
    db,
    `UPDATE dataset_rows SET passed = @passed, score = @score, failed_checks = @failed_checks,
       unverified = @unverified, error_codes = @error_codes, warning_codes = @warning_codes,
       warning_checks = @warning_checks
     WHERE dataset_id = @dataset_id AND row_index = @row_index`,
  );
  for (const row of rows) update.run({ dataset_id: datasetId, ...row });
}

/** What an export reads of each row. */
export type ExportRecord = Pick<
  RowRecord,
  | 'row_index'
  | 'source_row'
  | 'original_json'
  | 'fixed_json'
  | 'decision'
  | 'passed'
  | 'failed_checks'
  | 'flagged'
  | 'dropped'
> & { source_raw: string | null; source_path: string | null };

/** The next `limit` rows after `afterIndex`, in import order (keyset paging). */
export function exportPage(
  db: Db,
  datasetId: string,
  afterIndex: number,
  limit: number,
): ExportRecord[] {
  return statement(
    db,
    `SELECT row_index, source_row, original_json, fixed_json, decision, passed, failed_checks,
         flagged, dropped, source_raw, source_path
       FROM dataset_rows WHERE dataset_id = ? AND row_index > ?
       ORDER BY row_index LIMIT ?`,
  ).all(datasetId, afterIndex, limit) as ExportRecord[];
}

/** The samples of the rows given, ascending (what an estimate reads). */
export function samplesPage(
  db: Db,
  datasetId: string,
  indices: readonly number[],
): ({ row_index: number } & SampleSource)[] {
  if (indices.length === 0) return [];
  return statement(
    db,
    `SELECT row_index, ${SAMPLE_SOURCE} FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))
       ORDER BY row_index`,
  ).all(datasetId, JSON.stringify(indices)) as ({ row_index: number } & SampleSource)[];
}
