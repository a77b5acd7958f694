import type { Db } from './db.ts';
import { statement } from './statements.ts';

/**
 * The pairs of rows kept apart (migration 12): a person said they are not
 * duplicates. A pair is stored lower row first, whichever way it is given.
 */

export function keepPairApart(db: Db, datasetId: string, a: number, b: number): void {
  statement(
    db,
    `INSERT OR IGNORE INTO dataset_kept_pairs (dataset_id, first_row, row, kept_at)
       VALUES (?, ?, ?, ?)`,
  ).run(datasetId, Math.min(a, b), Math.max(a, b), new Date().toISOString());
}

/** Every pair kept apart in a dataset, lower row first. */
export function keptPairs(db: Db, datasetId: string): [number, number][] {
  return (
    statement(db, 'SELECT first_row, row FROM dataset_kept_pairs WHERE dataset_id = ?').all(
      datasetId,
    ) as { first_row: number; row: number }[]
  ).map(({ first_row, row }) => [first_row, row]);
}
