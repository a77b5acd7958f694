import type { Migration } from '../../migrate.ts';

/**
 * The near-duplicate signatures a dataset scan computed, kept for the next
 * scan (svc-signatures.sqlite, see store/signature-cache.ts): per row, the
 * signature and a key of the sample it was computed from (0: the imported
 * one), and which datasets have any (so a deleted one's are found without
 * reading every signature).
 */
export const signatures: Migration = {
  version: 1,
  name: 'signatures kept between scans',
  up: `CREATE TABLE signatures (
      dataset_id TEXT NOT NULL,
      row_index INTEGER NOT NULL,
      sample_key INTEGER NOT NULL,
      sig BLOB NOT NULL,
      PRIMARY KEY (dataset_id, row_index)) WITHOUT ROWID;
    CREATE TABLE cached (dataset_id TEXT PRIMARY KEY)`,
};
