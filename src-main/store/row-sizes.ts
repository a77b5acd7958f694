import type { Db } from './db.ts';
import { plucked } from './statements.ts';

/**
 * How large rows are as stored: the characters of the sample's JSON, or of
 * the source record's for a lean row (its sample is read from it). What a
 * run's estimate scales its trial by, read without parsing a row.
 */
const SIZE = "CASE WHEN sample_json = '' THEN length(original_json) ELSE length(sample_json) END";

/** The summed size of the rows at `indices` (one statement, no row parsed). */
export function rowsSize(db: Db, datasetId: string, indices: readonly number[]): number {
  if (indices.length === 0) return 0;
  return (plucked(
    db,
    `SELECT coalesce(sum(${SIZE}), 0) FROM dataset_rows
       WHERE dataset_id = ? AND row_index IN (SELECT value FROM json_each(?))`,
  ).get(datasetId, JSON.stringify(indices)) ?? 0) as number;
}

/** The summed size of every row of a dataset (one statement, no row parsed). */
export function datasetSize(db: Db, datasetId: string): number {
  return (plucked(
    db,
    `SELECT coalesce(sum(${SIZE}), 0) FROM dataset_rows WHERE dataset_id = ?`,
  ).get(datasetId) ?? 0) as number;
}
