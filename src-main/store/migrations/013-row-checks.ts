import type { Migration } from '../migrate.ts';

/**
 * A row's dataset-check verdicts (`checks_json`) move to a narrow table of
 * their own, a row each for the rows that have some. A scan writes them for
 * every row with an issue (each row of a benchmark's questions has one);
 * written into the wide row, each rewrote the row and moved its neighbours
 * as its page grew: 200,000 GSM8K-like rows' verdict writes took the
 * server's thread 1.25-1.37 s of CPU, and 0.90-0.99 s now (with the write
 * that reads no row, datasets-scan.ts setUnverdictedRowChecks). Upgrading
 * rewrites the rows once (DROP COLUMN): 1.8 s for 200,000 rows here.
 * Deleted with their dataset, in slices as its rows are (datasets.ts
 * deleteRowSlice).
 */
export const rowChecks: Migration = {
  version: 13,
  name: "rows' dataset-check verdicts in a table of their own",
  up: `
    CREATE TABLE dataset_row_checks (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      row_index INTEGER NOT NULL,
      checks_json TEXT NOT NULL,
      PRIMARY KEY (dataset_id, row_index)
    ) WITHOUT ROWID;
    INSERT INTO dataset_row_checks (dataset_id, row_index, checks_json)
      SELECT dataset_id, row_index, checks_json FROM dataset_rows WHERE checks_json IS NOT NULL;
    ALTER TABLE dataset_rows DROP COLUMN checks_json;
  `,
};
