import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db.ts';
import { keptRowCount, keptTallies, type TallyRecord } from './datasets-scan.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { importTextRows } from './testing/text-rows.ts';

const ROWS = 10;

const importInto = (db: Db, id: string): void => importTextRows(db, id, ROWS);

/** What the Overview counted before migration 10: every kept row's lists, read one by one. */
function recount(db: Db, id: string): { tallies: TallyRecord[]; kept: number } {
  const rows = db
    .prepare(
      `SELECT failed_checks, warning_checks, error_codes, warning_codes FROM dataset_rows
       WHERE dataset_id = ? AND dropped = 0`,
    )
    .all(id) as Record<
    'failed_checks' | 'warning_checks' | 'error_codes' | 'warning_codes',
    string
  >[];
  const tallies = new Map<string, TallyRecord>();
  const bump = (kind: TallyRecord['kind'], name: string, field: 'failed' | 'warned'): void => {
    const key = `${kind}/${name}`;
    const tally = tallies.get(key) ?? { kind, name, failed: 0, warned: 0 };
    tally[field]++;
    tallies.set(key, tally);
  };
  const split = (list: string): string[] => list.split(',').filter(Boolean);
  for (const row of rows) {
    const failed = split(row.failed_checks);
    for (const check of failed) bump('check', check, 'failed');
    for (const check of split(row.warning_checks)) {
      if (!failed.includes(check)) bump('check', check, 'warned');
    }
    const errors = split(row.error_codes);
    for (const code of errors) bump('issue', code, 'failed');
    for (const code of split(row.warning_codes)) {
      if (!errors.includes(code)) bump('issue', code, 'warned');
    }
  }
  return { tallies: [...tallies.values()], kept: rows.length };
}

const sorted = (tallies: TallyRecord[]): TallyRecord[] =>
  [...tallies].sort((a, b) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`));

/** Comma lists of check names and codes, as the verdict columns hold them (`,a,b,`). */
const list = fc
  .subarray(['duplicates', 'formatting', 'safety', 'exact_duplicate', 'pii_email'])
  .map((names) => (names.length === 0 ? '' : `,${names.join(',')},`));
const update = fc.record({
  row: fc.nat({ max: ROWS - 1 }),
  failed_checks: list,
  warning_checks: list,
  error_codes: list,
  warning_codes: list,
  dropped: fc.constantFrom(0, 1),
});

describe('tallies kept per dataset (migration 10)', () => {
  it('equal a recount of every kept row after any verdict writes and drops', () => {
    fc.assert(
      fc.property(fc.array(update, { maxLength: 40 }), fc.boolean(), (updates, onlyLists) => {
        const db = openDatabase(':memory:');
        importInto(db, 'ds_a');
        importInto(db, 'ds_b'); // another dataset's writes never count here
        const write = db.prepare(
          onlyLists
            ? `UPDATE dataset_rows SET failed_checks = @failed_checks, warning_checks = @warning_checks,
                 error_codes = @error_codes, warning_codes = @warning_codes
               WHERE dataset_id = 'ds_a' AND row_index = @row`
            : `UPDATE dataset_rows SET failed_checks = @failed_checks, warning_checks = @warning_checks,
                 error_codes = @error_codes, warning_codes = @warning_codes, dropped = @dropped
               WHERE dataset_id = 'ds_a' AND row_index = @row`,
        );
        for (const values of updates) write.run(values);
        db.prepare(
          `UPDATE dataset_rows SET failed_checks = ',safety,' WHERE dataset_id = 'ds_b'`,
        ).run();
        const expected = recount(db, 'ds_a');
        expect(sorted(keptTallies(db, 'ds_a'))).toEqual(sorted(expected.tallies));
        expect(keptRowCount(db, 'ds_a')).toBe(expected.kept);
        db.close();
      }),
      { numRuns: 300 },
    );
  });

  it('are filled from the rows of a database upgraded with datasets in it', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 10),
    );
    importInto(db, 'ds_a');
    db.prepare(
      `UPDATE dataset_rows SET failed_checks = ',duplicates,safety,', error_codes = ',exact_duplicate,',
         warning_checks = ',safety,formatting,', warning_codes = ',pii_email,'
       WHERE row_index % 3 = 0`,
    ).run();
    db.prepare(`UPDATE dataset_rows SET dropped = 1 WHERE row_index IN (0, 4)`).run();
    migrate(db, MIGRATIONS);
    const expected = recount(db, 'ds_a');
    expect(expected.tallies.length).toBeGreaterThan(0);
    expect(sorted(keptTallies(db, 'ds_a'))).toEqual(sorted(expected.tallies));
    expect(keptRowCount(db, 'ds_a')).toBe(ROWS - 2);
    // and kept from then on
    db.prepare(`UPDATE dataset_rows SET dropped = 0, failed_checks = '' WHERE row_index = 0`).run();
    expect(sorted(keptTallies(db, 'ds_a'))).toEqual(sorted(recount(db, 'ds_a').tallies));
    expect(keptRowCount(db, 'ds_a')).toBe(ROWS - 1);
  });

  it('go with their dataset', () => {
    const db = openDatabase(':memory:');
    importInto(db, 'ds_a');
    db.prepare(`UPDATE dataset_rows SET failed_checks = ',safety,'`).run();
    expect(keptTallies(db, 'ds_a')).toEqual([
      { kind: 'check', name: 'safety', failed: ROWS, warned: 0 },
    ]);
    db.prepare(`DELETE FROM dataset_rows WHERE dataset_id = 'ds_a'`).run();
    db.prepare(`DELETE FROM datasets WHERE id = 'ds_a'`).run();
    expect(db.prepare('SELECT count(*) FROM dataset_tallies').pluck().get()).toBe(0);
  });
});
