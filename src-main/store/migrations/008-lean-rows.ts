import type { Migration } from '../migrate.ts';

const FILTER_COLUMNS =
  'passed, flagged, changed, unverified, decision, failed_checks, dropped, error_codes, ' +
  'warning_codes, warning_checks';

/**
 * Rows stored once, imported at the storage's speed. An import now writes
 * each row as read (`original_json`) with the narrow columns the grid needs;
 * the sample, title, detail and search text of such a row are '' and derived
 * from the original when read (rows imported before keep theirs: both
 * layouts are read, nothing is converted).
 *
 * An import used to update five B-trees per row; now it updates two (the
 * UNIQUE row identity and `dataset_rows_by_index`). The task type joins the
 * index's covered columns (a task-type sort reads it per type), and the
 * score and status orders index only the rows that have a score or a status
 * (a fresh import has neither): the others sort after them (ascending) in row
 * order, which the queries add from `dataset_rows_by_index`. The partial
 * indexes' conditions are repeated word for word by the queries (see
 * datasets-filter.ts): SQLite uses a partial index only for a query that
 * states its condition.
 */
export const leanRows: Migration = {
  version: 8,
  name: 'rows stored once; score and status indexes over scored rows only',
  up: `
    DROP INDEX dataset_rows_by_index;
    DROP INDEX dataset_rows_by_task_type;
    DROP INDEX dataset_rows_by_score;
    DROP INDEX dataset_rows_by_status;
    CREATE INDEX dataset_rows_by_index
      ON dataset_rows(dataset_id, row_index, task_type, score, ${FILTER_COLUMNS});
    CREATE INDEX dataset_rows_by_score
      ON dataset_rows(dataset_id, score_key, row_index, ${FILTER_COLUMNS})
      WHERE score IS NOT NULL;
    CREATE INDEX dataset_rows_by_status
      ON dataset_rows(dataset_id, status_rank, row_index, ${FILTER_COLUMNS})
      WHERE passed IS NOT NULL OR flagged = 1;
  `,
};
