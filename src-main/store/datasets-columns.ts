import type { Db } from './db.ts';
import { plucked, statement } from './statements.ts';

/** A top-level key of a dataset's source rows and how many of them hold it. */
export interface KeyCount {
  key: string;
  rows: number;
}

/**
 * The top-level keys of the source rows an export writes (the rows not
 * dropped; the paths of one tree count once, as their source row), each with
 * how many rows hold it, and how many rows there are. A key fewer rows hold
 * than there are is one a columnar format (CSV, Parquet) must add to the
 * others. Read with SQLite's json_each: one pass over the rows, no parsing in
 * JavaScript.
 */
export function sourceKeyCounts(db: Db, datasetId: string): { rows: number; keys: KeyCount[] } {
  const rows = plucked(
    db,
    `SELECT count(DISTINCT source_row) FROM dataset_rows WHERE dataset_id = ? AND dropped = 0`,
  ).get(datasetId) as number;
  const keys = statement(
    db,
    `SELECT j.key AS key, count(DISTINCT r.source_row) AS rows
       FROM dataset_rows r, json_each(r.original_json) j
       WHERE r.dataset_id = ? AND r.dropped = 0 AND json_type(r.original_json) = 'object'
       GROUP BY j.key ORDER BY min(r.row_index), j.key`,
  ).all(datasetId) as KeyCount[];
  return { rows, keys };
}

/** An accepted fix an export writes into its source row (a row of its own, not a tree's path). */
export interface AcceptedFixRecord {
  original_json: string;
  fixed_json: string;
}

/**
 * The accepted fixes of the rows an export writes, one at a time: the keys
 * a fix adds to its row (a person's edit of a metadata field) are columns
 * too. Only the accepted rows are returned, to be parsed.
 */
export function acceptedFixes(db: Db, datasetId: string): IterableIterator<AcceptedFixRecord> {
  return statement(
    db,
    `SELECT original_json, fixed_json FROM dataset_rows
       WHERE dataset_id = ? AND decision = 'accepted' AND dropped = 0 AND fixed_json IS NOT NULL
         AND source_path IS NULL`,
  ).iterate(datasetId) as IterableIterator<AcceptedFixRecord>;
}
