import type { Migration } from '../migrate.ts';

/**
 * Pairs of rows a person said are not duplicates ("Keep both"): the next
 * scans no longer group the later row with the one it seemed to repeat.
 * Stored by the rows' indices (`first_row` < `row`), which never change in
 * a dataset; deleted with their dataset.
 */
export const keptPairs: Migration = {
  version: 12,
  name: 'duplicate pairs kept apart',
  up: `
    CREATE TABLE dataset_kept_pairs (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      first_row INTEGER NOT NULL,
      row INTEGER NOT NULL CHECK (row > first_row),
      kept_at TEXT NOT NULL,
      PRIMARY KEY (dataset_id, first_row, row)
    ) WITHOUT ROWID;
  `,
};
