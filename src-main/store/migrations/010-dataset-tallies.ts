import type { Migration } from '../migrate.ts';

/** A comma-separated list column (`failed_checks`: `duplicates,formatting`) as a JSON array. */
const list = (column: string): string => `'["' || replace(${column}, ',', '","') || '"]'`;

/** Whether `value` (a json_each value) is in a comma-separated list column. */
const inList = (column: string): string => `(',' || ${column} || ',') LIKE ('%,' || value || ',%')`;

const UPSERT = `ON CONFLICT (dataset_id, kind, name) DO UPDATE SET
        failed = failed + excluded.failed, warned = warned + excluded.warned`;

/**
 * One row's part in the tallies, added (`sign` 1, the row as it is now:
 * `new`) or taken away (-1, as it was: `old`). A check or code that failed
 * is counted failed; one that only warned, warned; dropped rows count for
 * nothing (the Overview's rule, datasets/overview.ts before this migration).
 */
function contribution(row: 'old' | 'new', sign: 1 | -1): string {
  const pairs: [kind: string, failed: string, warned: string][] = [
    ['check', 'failed_checks', 'warning_checks'],
    ['issue', 'error_codes', 'warning_codes'],
  ];
  return pairs
    .map(
      ([kind, failed, warned]) => `
      INSERT INTO dataset_tallies (dataset_id, kind, name, failed, warned)
        SELECT ${row}.dataset_id, '${kind}', value, ${sign}, 0 FROM json_each(${list(`${row}.${failed}`)})
        WHERE ${row}.dropped = 0 AND ${row}.${failed} != '' AND value != ''
      ${UPSERT};
      INSERT INTO dataset_tallies (dataset_id, kind, name, failed, warned)
        SELECT ${row}.dataset_id, '${kind}', value, 0, ${sign} FROM json_each(${list(`${row}.${warned}`)})
        WHERE ${row}.dropped = 0 AND ${row}.${warned} != '' AND value != ''
          AND NOT ${inList(`${row}.${failed}`)}
      ${UPSERT};`,
    )
    .join('');
}

/** The tallies as the rows stand (a database upgraded with datasets). */
function fill(kind: string, failed: string, warned: string): string {
  return `
    INSERT INTO dataset_tallies (dataset_id, kind, name, failed, warned)
      SELECT r.dataset_id, '${kind}', j.value, count(*), 0
      FROM dataset_rows AS r, json_each(${list(`r.${failed}`)}) AS j
      WHERE r.dropped = 0 AND r.${failed} != '' AND j.value != '' GROUP BY r.dataset_id, j.value;
    INSERT INTO dataset_tallies (dataset_id, kind, name, failed, warned)
      SELECT r.dataset_id, '${kind}', j.value, 0, count(*)
      FROM dataset_rows AS r, json_each(${list(`r.${warned}`)}) AS j
      WHERE r.dropped = 0 AND r.${warned} != '' AND j.value != ''
        AND NOT (',' || r.${failed} || ',') LIKE ('%,' || j.value || ',%')
      GROUP BY r.dataset_id, j.value
      ${UPSERT};`;
}

/**
 * The Overview's counts kept as verdicts are written, not counted per
 * request: per dataset, per check and per issue code, the rows that fail and
 * the rows that only warn (`dataset_tallies`), and the rows dropped
 * (`dataset_sort_counts.dropped`). Counting them read every row with a
 * verdict on the server's thread at each Overview: 90 ms at 50,000 rows,
 * seconds at a million. A trigger on the updates that change a verdict
 * column or a drop takes the row's old part out and puts its new part in;
 * imported rows have neither verdict nor drop, so an import fires nothing.
 * A dataset's rows go only with the dataset, and its tallies by the foreign
 * key. Check names and issue codes are identifiers (no quote, no comma), so
 * a list column reads as a JSON array once its commas are quoted; the
 * columns hold `,a,b,` (so that LIKE finds a whole name), whose empty ends
 * are skipped.
 */
export const datasetTallies: Migration = {
  version: 10,
  name: 'tallies of checks, issue codes and drops kept per dataset',
  up: `
    CREATE TABLE dataset_tallies (
      dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('check', 'issue')),
      name TEXT NOT NULL,
      failed INTEGER NOT NULL DEFAULT 0,
      warned INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (dataset_id, kind, name)
    ) WITHOUT ROWID;
    ${fill('check', 'failed_checks', 'warning_checks')}
    ${fill('issue', 'error_codes', 'warning_codes')}

    ALTER TABLE dataset_sort_counts ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;
    INSERT INTO dataset_sort_counts (dataset_id, dropped)
      SELECT dataset_id, count(*) FROM dataset_rows WHERE dropped = 1 GROUP BY dataset_id
      ON CONFLICT (dataset_id) DO UPDATE SET dropped = excluded.dropped;

    CREATE TRIGGER dataset_rows_tallies
      AFTER UPDATE OF failed_checks, warning_checks, error_codes, warning_codes, dropped
      ON dataset_rows
      WHEN old.dropped != new.dropped OR old.failed_checks != new.failed_checks
        OR old.warning_checks != new.warning_checks OR old.error_codes != new.error_codes
        OR old.warning_codes != new.warning_codes
    BEGIN
      ${contribution('old', -1)}
      ${contribution('new', 1)}
      INSERT INTO dataset_sort_counts (dataset_id, dropped)
        SELECT new.dataset_id, new.dropped - old.dropped WHERE new.dropped != old.dropped
        ON CONFLICT (dataset_id) DO UPDATE SET dropped = dropped + excluded.dropped;
    END;
  `,
};
