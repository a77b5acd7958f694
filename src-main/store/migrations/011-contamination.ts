import type { Migration } from '../migrate.ts';

/**
 * A second dataset check, `contamination`: a row's dataset-check verdicts
 * are one JSON object by check (`checks_json`: `{"duplicates": ...,
 * "contamination": ...}`, only the checks with issues; NULL: none, or never
 * scanned), where the `duplicates` verdict stood alone (`dupe_json`). A
 * dataset can be marked as an evaluation set (`eval_set`): the scans of the
 * others look for its rows.
 */
export const contamination: Migration = {
  version: 11,
  name: 'dataset-check verdicts by check, evaluation sets',
  up: `
    ALTER TABLE dataset_rows RENAME COLUMN dupe_json TO checks_json;
    UPDATE dataset_rows SET checks_json = json_object('duplicates', json(checks_json))
      WHERE checks_json IS NOT NULL;
    ALTER TABLE datasets ADD COLUMN eval_set INTEGER NOT NULL DEFAULT 0 CHECK (eval_set IN (0, 1));
  `,
};
