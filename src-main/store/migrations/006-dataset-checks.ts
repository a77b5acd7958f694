import type { Migration } from '../migrate.ts';

const FILTER_COLUMNS =
  'passed, flagged, changed, unverified, decision, failed_checks, dropped, error_codes, ' +
  'warning_codes, warning_checks';

/**
 * The dataset as a whole. Each row keeps its `duplicates` verdict
 * (`dupe_json`; NULL: it passed, or the dataset was never scanned) and the
 * signature its duplicate detection computed (`dedup_sig`; NULL once its
 * sample changes, so a rescan recomputes only those rows), whether the
 * person dropped it (`dropped`: the export leaves it out; undoable), and of
 * its verdict in force the issue codes of errors and of warnings and the
 * checks that warned (',a,b,', for the grid's filters and the Overview's
 * counts). A dataset keeps its latest scan (statistics and findings) and
 * its duplicate groups. The covering indexes are rebuilt with the new
 * filter columns.
 */
export const datasetChecks: Migration = {
  version: 6,
  name: 'dataset checks, drops and issue codes',
  up: `
    ALTER TABLE dataset_rows ADD COLUMN dupe_json TEXT;
    ALTER TABLE dataset_rows ADD COLUMN dedup_sig BLOB;
    ALTER TABLE dataset_rows ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0 CHECK (dropped IN (0, 1));
    ALTER TABLE dataset_rows ADD COLUMN error_codes TEXT NOT NULL DEFAULT '';
    ALTER TABLE dataset_rows ADD COLUMN warning_codes TEXT NOT NULL DEFAULT '';
    ALTER TABLE dataset_rows ADD COLUMN warning_checks TEXT NOT NULL DEFAULT '';
    ALTER TABLE datasets ADD COLUMN scan_json TEXT CHECK (scan_json IS NULL OR json_valid(scan_json));

    CREATE TABLE dataset_duplicate_groups (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      -- The group's first occurrence (it is kept; the others repeat it).
      first_row INTEGER NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('exact', 'near')),
      similarity REAL NOT NULL,
      label_conflict INTEGER NOT NULL CHECK (label_conflict IN (0, 1)),
      size INTEGER NOT NULL,
      rows_json TEXT NOT NULL CHECK (json_valid(rows_json)),
      PRIMARY KEY (dataset_id, first_row)
    ) WITHOUT ROWID;

    DROP INDEX dataset_rows_by_index;
    DROP INDEX dataset_rows_by_task_type;
    DROP INDEX dataset_rows_by_score;
    DROP INDEX dataset_rows_by_status;
    CREATE INDEX dataset_rows_by_index ON dataset_rows(dataset_id, row_index, ${FILTER_COLUMNS});
    CREATE INDEX dataset_rows_by_task_type
      ON dataset_rows(dataset_id, task_type, row_index, ${FILTER_COLUMNS});
    CREATE INDEX dataset_rows_by_score
      ON dataset_rows(dataset_id, score_key, row_index, ${FILTER_COLUMNS});
    CREATE INDEX dataset_rows_by_status
      ON dataset_rows(dataset_id, status_rank, row_index, ${FILTER_COLUMNS});
  `,
};
