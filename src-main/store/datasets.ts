import type { Db } from './db.ts';
import { plucked, statement } from './statements.ts';
import { unsynced } from './commit.ts';

/** The `datasets` and `dataset_errors` tables (migration 3). Rows live in datasets-rows.ts. */

export type DatasetState = 'importing' | 'ready' | 'deleting';

export interface DatasetRecord {
  id: string;
  name: string;
  file_name: string;
  format: 'jsonl' | 'json' | 'csv' | 'parquet';
  shape: string;
  /** JSON array of task types. */
  task_types: string;
  row_count: number;
  error_count: number;
  state: DatasetState;
  created_at: string;
  /** The field mapping the rows were read with (JSON), null for rows that are samples. */
  mapping_json: string | null;
  /** The source file's layout (JSON) for faithful exports. */
  layout_json: string | null;
  /** OpenAssistant trees: read along the best path or every path; null for other shapes. */
  paths: 'best' | 'all' | null;
  /** The latest dataset scan (JSON: statistics, findings), null before the first. */
  scan_json: string | null;
  /** 1: an evaluation set, whose rows the scans of the other datasets look for. */
  eval_set: 0 | 1;
  /** The first line of the source file holding bytes that are not UTF-8 (migration 14). */
  not_utf8_line: number | null;
}

/** Counts over a dataset's rows, by aggregate query. */
export interface DatasetStats {
  audited: number;
  failed: number;
  changed: number;
  flagged: number;
  accepted: number;
  dropped: number;
}

export function insertDataset(
  db: Db,
  row: Pick<DatasetRecord, 'id' | 'name' | 'file_name' | 'format' | 'shape'> &
    Partial<Pick<DatasetRecord, 'mapping_json' | 'layout_json' | 'paths'>>,
): void {
  statement(
    db,
    `INSERT INTO datasets (id, name, file_name, format, shape, mapping_json, layout_json, paths)
     VALUES (@id, @name, @file_name, @format, @shape, @mapping_json, @layout_json, @paths)`,
  ).run({ mapping_json: null, layout_json: null, paths: null, ...row });
}

/**
 * `name`, or else `name (2)`, `name (3)`, ... whichever no other dataset has
 * (one being deleted aside): the list, the Overview and an evaluation set's
 * evidence tell datasets apart by their names, so the same file imported
 * twice was two rows of the list no one could tell apart.
 */
export function unusedDatasetName(db: Db, name: string): string {
  const taken = statement(db, `SELECT 1 FROM datasets WHERE name = ? AND state != 'deleting'`);
  let candidate = name;
  for (let n = 2; taken.get(candidate) !== undefined; n++) candidate = `${name} (${n})`;
  return candidate;
}

/**
 * What an import in progress has stored so far: the rows and errors written
 * and the task types seen, so a listing shows the dataset growing.
 */
export function recordImportProgress(
  db: Db,
  id: string,
  progress: { row_count: number; error_count: number; task_types: readonly string[] },
): void {
  statement(
    db,
    `UPDATE datasets SET row_count = ?, error_count = ?, task_types = ?
     WHERE id = ? AND state = 'importing'`,
  ).run(progress.row_count, progress.error_count, JSON.stringify(progress.task_types), id);
}

/**
 * The mapping an import reads its rows with, stored as soon as it is chosen
 * (from the file's first rows): rows read while the import goes on are
 * mapped with it.
 */
export function recordImportMapping(
  db: Db,
  id: string,
  mapping: { mapping_json: string | null; paths: DatasetRecord['paths'] },
): void {
  statement(
    db,
    `UPDATE datasets SET mapping_json = ?, paths = ? WHERE id = ? AND state = 'importing'`,
  ).run(mapping.mapping_json, mapping.paths, id);
}

/** Marks an import complete with its counts; the dataset is listed from now on. */
export function finishImport(
  db: Db,
  id: string,
  totals: {
    row_count: number;
    error_count: number;
    task_types: readonly string[];
    mapping_json?: string | null;
    paths?: DatasetRecord['paths'];
  },
): void {
  statement(
    db,
    `UPDATE datasets SET row_count = ?, error_count = ?, task_types = ?, state = 'ready',
       mapping_json = ?, paths = ?
     WHERE id = ?`,
  ).run(
    totals.row_count,
    totals.error_count,
    JSON.stringify(totals.task_types),
    totals.mapping_json ?? null,
    totals.paths ?? null,
    id,
  );
}

/** Notes the first line of the dataset's source file that holds bytes that are not UTF-8. */
export function recordNotUtf8Line(db: Db, id: string, line: number): void {
  statement(db, 'UPDATE datasets SET not_utf8_line = ? WHERE id = ?').run(line, id);
}

export function datasetRecord(db: Db, id: string): DatasetRecord | undefined {
  return statement(db, 'SELECT * FROM datasets WHERE id = ?').get(id) as DatasetRecord | undefined;
}

/** The ids of every dataset, whatever its state. */
export function datasetIds(db: Db): Set<string> {
  return new Set(plucked(db, 'SELECT id FROM datasets').all() as string[]);
}

/** A dataset's state (`importing`, `ready`, ...), undefined when there is no such dataset. */
export function datasetState(db: Db, id: string): string | undefined {
  return plucked(db, 'SELECT state FROM datasets WHERE id = ?').get(id) as string | undefined;
}

/** Marks a dataset as an evaluation set, or not. */
export function setEvalSet(db: Db, id: string, evalSet: boolean): void {
  statement(db, 'UPDATE datasets SET eval_set = ? WHERE id = ?').run(evalSet ? 1 : 0, id);
}

/** Datasets in a state, newest first. */
export function datasetsIn(db: Db, ...states: DatasetState[]): DatasetRecord[] {
  return statement(
    db,
    `SELECT * FROM datasets WHERE state IN (SELECT value FROM json_each(?))
       ORDER BY created_at DESC, id`,
  ).all(JSON.stringify(states)) as DatasetRecord[];
}

export function setDatasetState(db: Db, id: string, state: DatasetState): void {
  statement(db, 'UPDATE datasets SET state = ? WHERE id = ?').run(state, id);
}

export function datasetStats(db: Db, id: string): DatasetStats {
  // Each count reads only the rows in its state, from that state's partial index (migration 9;
  // the conditions are those of the indexes, word for word, or SQLite would not use them), and
  // the audited rows are the rows with a status (kept in dataset_sort_counts) less those that
  // have one only by a flag. Reading every row's index instead took 234 ms at a million rows,
  // on the main thread, at each listing.
  return statement(
    db,
    `SELECT
         coalesce((SELECT with_status FROM dataset_sort_counts WHERE dataset_id = @id), 0)
           - (SELECT count(*) FROM dataset_rows INDEXED BY dataset_rows_flagged
              WHERE dataset_id = @id AND flagged = 1 AND passed IS NULL) AS audited,
         (SELECT count(*) FROM dataset_rows INDEXED BY dataset_rows_failing
          WHERE dataset_id = @id AND (passed = 0 OR failed_checks != '') AND passed = 0) AS failed,
         (SELECT count(*) FROM dataset_rows INDEXED BY dataset_rows_changed
          WHERE dataset_id = @id AND changed = 1) AS changed,
         (SELECT count(*) FROM dataset_rows INDEXED BY dataset_rows_flagged
          WHERE dataset_id = @id AND flagged = 1) AS flagged,
         (SELECT count(*) FROM dataset_rows INDEXED BY dataset_rows_decided
          WHERE dataset_id = @id AND decision IS NOT NULL AND decision = 'accepted') AS accepted,
         (SELECT count(*) FROM dataset_rows INDEXED BY dataset_rows_dropped
          WHERE dataset_id = @id AND dropped = 1) AS dropped`,
  ).get({ id }) as DatasetStats;
}

/**
 * Deletes up to `limit` of the dataset's rows (lowest indices first), with
 * their dataset-check verdicts; returns how many rows. Big datasets go in
 * slices so no single statement blocks for long.
 */
export function deleteRowSlice(db: Db, id: string, limit: number): number {
  // Immediate (`unsynced` begins so): another connection (a CLI command on the same data folder)
  // committing between the read of the slice's end and the deletes would otherwise make them fail
  // as busy, unretried. Unsynced: a slice's fsync on the server's thread waited up to 80 ms while
  // other threads wrote (store/commit.ts says what a power cut may then undo).
  return unsynced(db, () => {
    // Row indices are below 2^31: past every one.
    const end = plucked(
      db,
      `SELECT coalesce((SELECT row_index FROM dataset_rows WHERE dataset_id = @id
       ORDER BY row_index LIMIT 1 OFFSET @limit), ${Number.MAX_SAFE_INTEGER})`,
    ).get({ id, limit }) as number;
    statement(db, 'DELETE FROM dataset_row_checks WHERE dataset_id = ? AND row_index < ?').run(
      id,
      end,
    );
    return statement(db, 'DELETE FROM dataset_rows WHERE dataset_id = ? AND row_index < ?').run(
      id,
      end,
    ).changes;
  });
}

/** Deletes the dataset with whatever rows, errors and runs it still has. */
export function deleteDatasetRecord(db: Db, id: string): number {
  return statement(db, 'DELETE FROM datasets WHERE id = ?').run(id).changes;
}

export interface ImportErrorRecord {
  row: number;
  message: string;
}

export function insertImportErrors(
  db: Db,
  datasetId: string,
  errors: readonly ImportErrorRecord[],
): void {
  const insert = statement(
    db,
    'INSERT INTO dataset_errors (dataset_id, source_row, message) VALUES (?, ?, ?)',
  );
  for (const error of errors) insert.run(datasetId, error.row, error.message);
}

export function importErrorRecords(db: Db, datasetId: string, limit: number): ImportErrorRecord[] {
  return statement(
    db,
    `SELECT source_row AS row, message FROM dataset_errors
       WHERE dataset_id = ? ORDER BY source_row LIMIT ?`,
  ).all(datasetId, limit) as ImportErrorRecord[];
}
