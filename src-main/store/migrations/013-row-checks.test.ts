import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { deleteDatasetRecord, deleteRowSlice } from '../datasets.ts';
import { rowRecord } from '../datasets-rows.ts';
import { migrate } from '../migrate.ts';
import { importTextRows } from '../testing/text-rows.ts';
import { MIGRATIONS } from './index.ts';

/**
 * Migration 13 moves the rows' dataset-check verdicts to a table of their
 * own: a database upgraded with datasets in it reads the same checks, and
 * they go with their rows when a dataset is deleted.
 */

const checksOf = (db: Database.Database): unknown[] =>
  db
    .prepare('SELECT dataset_id, row_index, checks_json FROM dataset_row_checks ORDER BY 1, 2')
    .all();

describe("migration 13: rows' dataset-check verdicts apart", () => {
  it('keeps the checks of a database upgraded with datasets in it', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 13),
    );
    importTextRows(db, 'ds_a', 10);
    importTextRows(db, 'ds_b', 3);
    const checks = (n: number): string =>
      JSON.stringify({ duplicates: { passed: false, score: 0, issues: [{ ref: n }] } });
    const write = db.prepare(
      'UPDATE dataset_rows SET checks_json = ? WHERE dataset_id = ? AND row_index = ?',
    );
    write.run(checks(1), 'ds_a', 4);
    write.run(checks(2), 'ds_a', 9);
    write.run(checks(3), 'ds_b', 0);
    migrate(db, MIGRATIONS);
    expect(checksOf(db)).toEqual([
      { dataset_id: 'ds_a', row_index: 4, checks_json: checks(1) },
      { dataset_id: 'ds_a', row_index: 9, checks_json: checks(2) },
      { dataset_id: 'ds_b', row_index: 0, checks_json: checks(3) },
    ]);
    expect(rowRecord(db, 'ds_a', 9)?.checks_json).toBe(checks(2));
    expect(rowRecord(db, 'ds_a', 8)?.checks_json).toBeNull();
    const columns = db.prepare("SELECT name FROM pragma_table_info('dataset_rows')").pluck().all();
    expect(columns).not.toContain('checks_json');

    // Deleted with the rows, a slice at a time; the other dataset's stay.
    expect(deleteRowSlice(db, 'ds_a', 5)).toBe(5);
    expect(checksOf(db)).toHaveLength(2);
    while (deleteRowSlice(db, 'ds_a', 5) > 0);
    deleteDatasetRecord(db, 'ds_a');
    expect(checksOf(db)).toEqual([{ dataset_id: 'ds_b', row_index: 0, checks_json: checks(3) }]);
    db.close();
  });
});
