import type { Db } from './db.ts';
import { plucked, statement } from './statements.ts';
import {
  CHECKS_JSON,
  SAMPLE_SOURCE,
  type SampleSource,
  type VerdictRecord,
} from './datasets-rows.ts';

/**
 * What the dataset scan reads and writes (migration 6): each row's current
 * sample and stored signature, its `duplicates` verdict, the duplicate
 * groups, and the scan's statistics and findings on the dataset.
 */

/** What the scan reads of each row. */
export interface ScanRowRecord extends SampleSource {
  row_index: number;
  source_row: number;
  fixed_json: string | null;
  decision: 'accepted' | 'rejected' | null;
  dropped: 0 | 1;
  /** Whether the row has a `duplicates` verdict from an earlier scan. */
  has_checks: 0 | 1;
  /** Whether the row is one path of a tree (its source row holds others). */
  in_tree: 0 | 1;
}

/** The next `limit` rows after `afterIndex` (up to `throughIndex`), in order (keyset paging). */
export function scanPage(
  db: Db,
  datasetId: string,
  afterIndex: number,
  limit: number,
  throughIndex = Number.MAX_SAFE_INTEGER,
): ScanRowRecord[] {
  return statement(
    db,
    `SELECT row_index, source_row, ${SAMPLE_SOURCE}, fixed_json, decision, dropped,
         EXISTS (SELECT 1 FROM dataset_row_checks c
           WHERE c.dataset_id = dataset_rows.dataset_id AND c.row_index = dataset_rows.row_index)
           AS has_checks,
         source_path IS NOT NULL AS in_tree
       FROM dataset_rows WHERE dataset_id = ? AND row_index > ? AND row_index <= ?
       ORDER BY row_index LIMIT ?`,
  ).all(datasetId, afterIndex, throughIndex, limit) as ScanRowRecord[];
}

/**
 * The index of the last of the next `rows` rows after `afterIndex` (fewer
 * when the dataset ends sooner), or null when none follows: where a slice of
 * a scan ends, found on the primary key without reading a row.
 */
export function scanSliceEnd(
  db: Db,
  datasetId: string,
  afterIndex: number,
  rows: number,
): number | null {
  return plucked(
    db,
    `SELECT max(row_index) FROM (SELECT row_index FROM dataset_rows
       WHERE dataset_id = ? AND row_index > ? ORDER BY row_index LIMIT ?)`,
  ).get(datasetId, afterIndex, rows) as number | null;
}

export type CurrentSampleRecord = Pick<
  ScanRowRecord,
  'row_index' | keyof SampleSource | 'fixed_json' | 'decision'
>;

/** The current sample of rows: what their export holds (an accepted fix, else the import). */
export function currentSamples(
  db: Db,
  datasetId: string,
  indices: readonly number[],
): CurrentSampleRecord[] {
  if (indices.length === 0) return [];
  return statement(
    db,
    `SELECT row_index, ${SAMPLE_SOURCE}, fixed_json, decision FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))`,
  ).all(datasetId, JSON.stringify(indices)) as CurrentSampleRecord[];
}

/** What recomputing a row's verdict columns needs, and what they hold now. */
export interface VerdictInputRecord extends VerdictRecord {
  audit_json: string | null;
  reaudit_json: string | null;
  decision: 'accepted' | 'rejected' | null;
  /** The `duplicates` verdict stored now. */
  checks_json: string | null;
}

export function verdictInputs(
  db: Db,
  datasetId: string,
  indices: readonly number[],
): VerdictInputRecord[] {
  if (indices.length === 0) return [];
  return statement(
    db,
    `SELECT row_index, audit_json, reaudit_json, decision, ${CHECKS_JSON}, passed, score,
         failed_checks, unverified, error_codes, warning_codes, warning_checks FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))`,
  ).all(datasetId, JSON.stringify(indices)) as VerdictInputRecord[];
}

/** Sets rows' dataset-check verdicts and the verdict columns that follow from them. */
export function setDatasetVerdicts(
  db: Db,
  datasetId: string,
  rows: readonly (VerdictRecord & { checks_json: string | null })[],
): void {
  const update = statement(
    db,
    `UPDATE dataset_rows SET passed = @passed, score = @score,
       failed_checks = @failed_checks, unverified = @unverified, error_codes = @error_codes,
       warning_codes = @warning_codes, warning_checks = @warning_checks
     WHERE dataset_id = @dataset_id AND row_index = @row_index`,
  );
  for (const { checks_json, ...row } of rows) {
    update.run({ dataset_id: datasetId, ...row });
    setRowChecks(db, datasetId, row.row_index, checks_json);
  }
}

/**
 * Sets rows' dataset-check verdicts alone, for rows whose verdict columns
 * they leave as stored (a benchmark's own rows, whose warnings keep them
 * unaudited; a rescan whose groups moved).
 */
export function setDatasetChecks(
  db: Db,
  datasetId: string,
  rows: readonly { row_index: number; checks_json: string | null }[],
): void {
  for (const row of rows) setRowChecks(db, datasetId, row.row_index, row.checks_json);
}

/** A row's dataset-check verdicts (null: none, the row's entry deleted). */
function setRowChecks(db: Db, datasetId: string, row: number, checksJson: string | null): void {
  if (checksJson === null) {
    statement(db, 'DELETE FROM dataset_row_checks WHERE dataset_id = ? AND row_index = ?').run(
      datasetId,
      row,
    );
    return;
  }
  statement(
    db,
    `INSERT INTO dataset_row_checks (dataset_id, row_index, checks_json) VALUES (?, ?, ?)
       ON CONFLICT (dataset_id, row_index) DO UPDATE SET checks_json = excluded.checks_json`,
  ).run(datasetId, row, checksJson);
}

/**
 * Sets a row's dataset-check verdicts if its verdict columns are those of
 * no verdict and its checks are other than these: what `setDatasetChecks`
 * writes for such a row, without reading the row. The caller knows none of
 * the checks failed, so the columns stay. Every write keeps a row's verdict
 * columns those of its audit, reaudit, decision and checks (a row audited
 * has `passed` set), so columns of no verdict are a row that has none: the
 * condition is read from the covering index `dataset_rows_by_index`, not
 * from the wide row (reading it cost as much as the write). False when the
 * row is not so: the caller then reads it and decides.
 */
export function setUnverdictedRowChecks(
  db: Db,
  datasetId: string,
  row: number,
  checksJson: string,
): boolean {
  // Bound by position: named, the parameters took ~10% more of the write's time.
  return (
    statement(
      db,
      `INSERT INTO dataset_row_checks (dataset_id, row_index, checks_json)
         SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM dataset_rows INDEXED BY dataset_rows_by_index
           WHERE dataset_id = ? AND row_index = ? AND passed IS NULL AND score IS NULL
             AND failed_checks = '' AND unverified = 0 AND error_codes = ''
             AND warning_codes = '' AND warning_checks = '')
         ON CONFLICT (dataset_id, row_index) DO UPDATE SET checks_json = excluded.checks_json
           WHERE checks_json IS NOT excluded.checks_json`,
    ).run(datasetId, row, checksJson, datasetId, row).changes === 1
  );
}

export interface DuplicateGroupRecord {
  first_row: number;
  kind: 'exact' | 'near';
  similarity: number;
  label_conflict: 0 | 1;
  size: number;
  rows_json: string;
  /** Read only: the members' numbers in the file, in the same order. */
  source_rows_json?: string;
}

export function replaceDuplicateGroups(
  db: Db,
  datasetId: string,
  groups: readonly DuplicateGroupRecord[],
): void {
  statement(db, 'DELETE FROM dataset_duplicate_groups WHERE dataset_id = ?').run(datasetId);
  const insert = statement(
    db,
    `INSERT INTO dataset_duplicate_groups
       (dataset_id, first_row, kind, similarity, label_conflict, size, rows_json)
     VALUES (@dataset_id, @first_row, @kind, @similarity, @label_conflict, @size, @rows_json)`,
  );
  for (const group of groups) insert.run({ dataset_id: datasetId, ...group });
}

export function duplicateGroupsPage(
  db: Db,
  datasetId: string,
  offset: number,
  limit: number,
): { total: number; groups: DuplicateGroupRecord[] } {
  const total = plucked(
    db,
    'SELECT count(*) FROM dataset_duplicate_groups WHERE dataset_id = ?',
  ).get(datasetId) as number;
  const groups = statement(
    db,
    `SELECT first_row, kind, similarity, label_conflict, size, rows_json,
         (SELECT json_group_array(r.source_row ORDER BY m.key) FROM json_each(g.rows_json) AS m
            CROSS JOIN dataset_rows AS r ON r.dataset_id = g.dataset_id AND r.row_index = m.value
         ) AS source_rows_json
       FROM dataset_duplicate_groups AS g WHERE dataset_id = ?
       ORDER BY first_row LIMIT ? OFFSET ?`,
  ).all(datasetId, limit, offset) as DuplicateGroupRecord[];
  return { total, groups };
}

export function setScan(db: Db, datasetId: string, scanJson: string): void {
  statement(db, 'UPDATE datasets SET scan_json = ? WHERE id = ?').run(scanJson, datasetId);
}

/** One line of a dataset's kept tallies (migration 10): rows failing or only warning. */
export interface TallyRecord {
  kind: 'check' | 'issue';
  name: string;
  failed: number;
  warned: number;
}

/** The tallies of a dataset's kept rows, per check and per issue code, kept by a trigger. */
export function keptTallies(db: Db, datasetId: string): TallyRecord[] {
  return statement(
    db,
    `SELECT kind, name, failed, warned FROM dataset_tallies
       WHERE dataset_id = ? AND (failed != 0 OR warned != 0)`,
  ).all(datasetId) as TallyRecord[];
}

/** How many rows are not dropped: the dataset's rows less the drops kept by a trigger. */
export function keptRowCount(db: Db, datasetId: string): number {
  return plucked(
    db,
    `SELECT d.row_count - coalesce(c.dropped, 0) FROM datasets AS d
       LEFT JOIN dataset_sort_counts AS c ON c.dataset_id = d.id WHERE d.id = ?`,
  ).get(datasetId) as number;
}
