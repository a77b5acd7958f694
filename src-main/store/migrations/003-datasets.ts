import type { Migration } from '../migrate.ts';

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** The columns every grid query filters on; each index below carries them (covering). */
const FILTER_COLUMNS = 'passed, flagged, changed, unverified, decision, failed_checks';

/**
 * Datasets in the app: imported files kept row by row with their original
 * rows (for the export round trip), the samples, the results of runs and the
 * owner's decisions; the import errors; and the runs.
 *
 * `dataset_rows` is a rowid table, not WITHOUT ROWID: its rows (the original
 * and the sample as JSON, then the result blocks) are a few kilobytes, and a
 * WITHOUT ROWID B-tree keeps at most ~1 KB of a row on its page and spills the
 * rest to an overflow page of its own (measured on 200,000 GSM8K-sized rows:
 * 974 MB and 18 s to import, against 459 MB and 11 s as a rowid table). The
 * row's identity is UNIQUE (dataset_id, row_index). Small columns come first.
 * The grid never scans the table itself (except for a text search): each sort
 * order has a narrow covering index holding every filter column, so a
 * filtered count or a page a million rows deep reads a few tens of megabytes.
 */
export const datasets: Migration = {
  version: 3,
  name: 'datasets, rows and runs',
  up: `
    CREATE TABLE datasets (
      id TEXT PRIMARY KEY CHECK (id GLOB 'ds_?*'),
      name TEXT NOT NULL,
      file_name TEXT NOT NULL,
      format TEXT NOT NULL CHECK (format IN ('jsonl', 'json', 'csv', 'parquet')),
      shape TEXT NOT NULL,
      task_types TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(task_types)),
      row_count INTEGER NOT NULL DEFAULT 0,
      error_count INTEGER NOT NULL DEFAULT 0,
      -- 'importing' until the import's last rows are in, 'deleting' while its rows go;
      -- only 'ready' datasets are listed. A crash mid-way leaves the others to be cleared.
      state TEXT NOT NULL DEFAULT 'importing' CHECK (state IN ('importing', 'ready', 'deleting')),
      created_at TEXT NOT NULL DEFAULT (${NOW})
    );

    CREATE TABLE dataset_rows (
      id INTEGER PRIMARY KEY,
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      -- 0-based import order; the row's identity within its dataset.
      row_index INTEGER NOT NULL CHECK (row_index >= 0),
      task_type TEXT NOT NULL,
      -- Of the latest verdict: the reaudit of a refine, else the audit. NULL: not audited.
      passed INTEGER CHECK (passed IN (0, 1)),
      -- The lowest check score of that verdict.
      score REAL,
      -- ',a,b,' (the failed checks, comma-delimited on both sides), '' when none.
      failed_checks TEXT NOT NULL DEFAULT '',
      flagged INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
      changed INTEGER NOT NULL DEFAULT 0 CHECK (changed IN (0, 1)),
      -- label_correct / answer_correct is null: the engine could not verify the label.
      unverified INTEGER NOT NULL DEFAULT 0 CHECK (unverified IN (0, 1)),
      decision TEXT CHECK (decision IN ('accepted', 'rejected')),
      -- The row's number in the file (1-based, as the reader counts it).
      source_row INTEGER NOT NULL,
      -- Lowercased main and secondary text, for substring search.
      search_text TEXT NOT NULL,
      title TEXT NOT NULL,
      detail TEXT NOT NULL,
      original_json TEXT NOT NULL,
      sample_json TEXT NOT NULL,
      audit_json TEXT,
      fix_json TEXT,
      reaudit_json TEXT,
      -- The sample after an accepted candidate; NULL when the fix changed nothing.
      fixed_json TEXT,
      -- Sort keys: failed, flagged, passed, not audited; unaudited rows after scored ones.
      status_rank INTEGER GENERATED ALWAYS AS (
        CASE WHEN passed = 0 THEN 0 WHEN flagged = 1 THEN 1 WHEN passed = 1 THEN 2 ELSE 3 END
      ) VIRTUAL,
      score_key REAL GENERATED ALWAYS AS (coalesce(score, 2.0)) VIRTUAL,
      UNIQUE (dataset_id, row_index)
    );
    CREATE INDEX dataset_rows_by_index ON dataset_rows(dataset_id, row_index, ${FILTER_COLUMNS});
    CREATE INDEX dataset_rows_by_task_type
      ON dataset_rows(dataset_id, task_type, row_index, ${FILTER_COLUMNS});
    CREATE INDEX dataset_rows_by_score
      ON dataset_rows(dataset_id, score_key, row_index, ${FILTER_COLUMNS});
    CREATE INDEX dataset_rows_by_status
      ON dataset_rows(dataset_id, status_rank, row_index, ${FILTER_COLUMNS});

    CREATE TABLE dataset_errors (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      source_row INTEGER NOT NULL,
      message TEXT NOT NULL
    );
    CREATE INDEX dataset_errors_dataset ON dataset_errors(dataset_id, source_row);

    CREATE TABLE runs (
      id TEXT PRIMARY KEY CHECK (id GLOB 'run_?*'),
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      operation TEXT NOT NULL CHECK (operation IN ('audit', 'fix', 'refine')),
      scope_json TEXT NOT NULL CHECK (json_valid(scope_json)),
      config_json TEXT NOT NULL CHECK (json_valid(config_json)),
      status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled', 'failed')),
      total INTEGER NOT NULL CHECK (total >= 0),
      done INTEGER NOT NULL DEFAULT 0 CHECK (done >= 0),
      cost_micro INTEGER NOT NULL DEFAULT 0 CHECK (typeof(cost_micro) = 'integer' AND cost_micro >= 0),
      error TEXT,
      started_at TEXT NOT NULL DEFAULT (${NOW}),
      finished_at TEXT
    );
    CREATE INDEX runs_dataset ON runs(dataset_id, started_at);
  `,
};
