import type { Migration } from '../migrate.ts';

const COVERED =
  'task_type, score, passed, flagged, changed, unverified, decision, failed_checks, dropped, ' +
  'error_codes, warning_codes, warning_checks';

/** The counts of `dataset_sort_counts` as the rows stand (a database upgraded with datasets). */
export const FILL_SORT_COUNTS = `INSERT INTO dataset_sort_counts (dataset_id, scored, with_status)
      SELECT dataset_id, count(score), sum(passed IS NOT NULL OR flagged = 1)
      FROM dataset_rows GROUP BY dataset_id`;

/**
 * The grid's filters answered from the rows they select, not from every row:
 * one partial covering index per filter's state (the conditions listed in
 * FILTER_INDEXES, datasets-filter.ts), keyed like `dataset_rows_by_index`
 * and covering the same columns. A filter's count and its pages in row order
 * read only the rows in that state: a tenth of a million-row dataset failed,
 * its count reads 100,000 entries instead of 1,000,000 (measured: see the
 * README). A row enters an index only when a run, a decision or a drop puts
 * it in that state; an import writes none of them (its rows have no verdict,
 * no flag, no change, no decision), so it pays only the evaluation of each
 * condition per row. The queries repeat each condition word for word: SQLite
 * uses a partial index only for a query that states its condition.
 *
 * A page deep in the score or status order of every row starts past the
 * rows that have a score (a status): how many, kept per dataset in
 * `dataset_sort_counts` by a trigger on the updates that change it (a
 * lookup, where counting them read the whole index: 80–450 ms at a million
 * rows). Imported rows have neither, so an import fires nothing; a dataset's
 * rows are deleted only with it, its counts going by the foreign key.
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

    CREATE TABLE dataset_sort_counts (
      dataset_id TEXT PRIMARY KEY REFERENCES datasets(id) ON DELETE CASCADE,
      -- rows with a score (in dataset_rows_by_score), rows with a status (in dataset_rows_by_status)
      scored INTEGER NOT NULL DEFAULT 0,
      with_status INTEGER NOT NULL DEFAULT 0
    );
    ${FILL_SORT_COUNTS};
    CREATE TRIGGER dataset_rows_sort_counts AFTER UPDATE OF score, passed, flagged ON dataset_rows
      WHEN (old.score IS NULL) != (new.score IS NULL)
        OR (old.passed IS NOT NULL OR old.flagged = 1) != (new.passed IS NOT NULL OR new.flagged = 1)
    BEGIN
      INSERT INTO dataset_sort_counts (dataset_id, scored, with_status) VALUES (
        new.dataset_id,
        (new.score IS NOT NULL) - (old.score IS NOT NULL),
        (new.passed IS NOT NULL OR new.flagged = 1) - (old.passed IS NOT NULL OR old.flagged = 1))
      ON CONFLICT (dataset_id) DO UPDATE SET
        scored = scored + excluded.scored, with_status = with_status + excluded.with_status;
    END;
  `,
};
