import type { Migration } from '../migrate.ts';

const COVERED =
  'task_type, score, passed, flagged, changed, unverified, decision, failed_checks, dropped, ' +
  'error_codes, warning_codes, warning_checks';

/**
 * The grid's filters answered from the rows they select, not from every row:
 * one partial covering index per filter's state (the conditions listed in
 * GRID_FILTER_INDEXES, datasets-filter.ts), keyed like `dataset_rows_by_index`
 * and covering the same columns. A filter's count and its pages in row order
 * read only the rows in that state: a tenth of a million-row dataset failed,
 * its count reads 100,000 entries instead of 1,000,000 (measured: see the
 * README). A row enters an index only when a run, a decision or a drop puts
 * it in that state; an import writes none of them (its rows have no verdict,
 * no flag, no change, no decision), so it pays only the evaluation of each
 * condition per row. The queries repeat each condition word for word: SQLite
 * uses a partial index only for a query that states its condition.
 */
export const gridFilterIndexes: Migration = {
  version: 9,
  name: 'partial covering indexes per grid filter state',
  up: `
    CREATE INDEX dataset_rows_failing ON dataset_rows(dataset_id, row_index, ${COVERED})
      WHERE passed = 0 OR failed_checks != '';
    CREATE INDEX dataset_rows_with_issues ON dataset_rows(dataset_id, row_index, ${COVERED})
      WHERE error_codes != '' OR warning_codes != '' OR warning_checks != '';
    CREATE INDEX dataset_rows_flagged ON dataset_rows(dataset_id, row_index, ${COVERED})
      WHERE flagged = 1;
    CREATE INDEX dataset_rows_changed ON dataset_rows(dataset_id, row_index, ${COVERED})
      WHERE changed = 1;
    CREATE INDEX dataset_rows_decided ON dataset_rows(dataset_id, row_index, ${COVERED})
      WHERE decision IS NOT NULL;
    CREATE INDEX dataset_rows_dropped ON dataset_rows(dataset_id, row_index, ${COVERED})
      WHERE dropped = 1;
    CREATE INDEX dataset_rows_unverified ON dataset_rows(dataset_id, row_index, ${COVERED})
      WHERE unverified = 1;
  `,
};
