import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { placeHold, settleHold } from '../service/billing/billing.ts';
import { everyFieldSearch } from './testing/text-rows.ts';
import { openDatabase } from './db.ts';
import { balances } from './ledger.ts';
import { readSettings, writeSettingsSection } from './settings.ts';
import { insertDataset } from './datasets.ts';
import { countRows, gridRows, insertRows, pageIndices } from './datasets-rows.ts';
import {
  COMPOSED_KEPT,
  composed,
  composedPlucked,
  plucked,
  preparedCount,
  statement,
} from './statements.ts';

describe('statements prepared once per connection', () => {
  it('hands back the same statement for the same SQL on the same connection only', () => {
    const a = openDatabase(':memory:');
    const b = openDatabase(':memory:');
    const sql = 'SELECT count(*) AS n FROM ledger';
    expect(statement(a, sql)).toBe(statement(a, sql));
    expect(statement(b, sql)).not.toBe(statement(a, sql));
    // A plucked statement is kept apart: the other keeps returning rows.
    expect(plucked(a, sql).get()).toBe(1);
    expect(statement(a, sql).get()).toEqual({ n: 1 });
  });

  it('prepares nothing once a request path is warm', () => {
    const db = openDatabase(':memory:');
    const cycle = (i: number) => {
      const hold = placeHold(db, { accountId: 1, micro: 10_000, requestId: `r${i}` });
      settleHold(db, hold, { chargeMicro: 10_000, meta: { i } });
      return balances(db, 1);
    };
    cycle(0);
    const warm = preparedCount(db);
    const prepare = vi.spyOn(db, 'prepare');
    for (let i = 1; i <= 20; i++) cycle(i);
    expect(prepare).not.toHaveBeenCalled();
    expect(preparedCount(db)).toBe(warm);
    expect(balances(db, 1).balance_micro).toBe(5_000_000 - 21 * 10_000);
  });

  it('follows a schema change (SQLite re-prepares a cached statement itself)', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (a INTEGER)');
    db.exec('INSERT INTO t VALUES (1)');
    expect(statement(db, 'SELECT * FROM t').get()).toEqual({ a: 1 });
    db.exec("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'x'");
    expect(statement(db, 'SELECT * FROM t').get()).toEqual({ a: 1, b: 'x' });
  });

  it("sees another connection's settings write through the cached data_version", () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-statements-'));
    const server = openDatabase(dir);
    const cli = openDatabase(dir);
    expect(readSettings(server).dedup.threshold).not.toBe(0.5);
    writeSettingsSection(cli, 'dedup', { ...readSettings(cli).dedup, threshold: 0.5 });
    expect(readSettings(server).dedup.threshold).toBe(0.5);
    server.close();
    cli.close();
  });

  it('keeps the most recently used composed statements, a bounded number', () => {
    const db = openDatabase(':memory:');
    const sql = (i: number) => `SELECT ${i} AS n`;
    const first = composed(db, sql(0));
    expect(composed(db, sql(0))).toBe(first);
    for (let i = 1; i <= COMPOSED_KEPT; i++) composed(db, sql(i));
    // The least recently used went when one more came: prepared again.
    expect(composed(db, sql(0))).not.toBe(first);
    expect(composedPlucked(db, sql(5)).get()).toBe(5);
    expect(composed(db, sql(5)).get()).toEqual({ n: 5 });
  });

  it('prepares nothing once a grid page and its count are warm', () => {
    const db = openDatabase(':memory:');
    insertDataset(db, {
      id: 'ds_a',
      name: 'a',
      file_name: 'a.jsonl',
      format: 'jsonl',
      shape: 'text',
    });
    insertRows(
      db,
      'ds_a',
      Array.from({ length: 20 }, (_, i) => ({
        row_index: i,
        source_row: i + 1,
        task_type: 'text',
        search_text: `row ${i}`,
        title: `Row ${i}`,
        detail: '',
        original_json: JSON.stringify({ text: `Row ${i}` }),
        sample_json: '{}',
      })),
    );
    const read = () => {
      const filter = { flagged: false, search: 'row 1' };
      const sort = { column: 'score', direction: 'desc' } as const;
      const search = everyFieldSearch;
      countRows(db, 'ds_a', filter, search);
      gridRows(db, 'ds_a', pageIndices(db, 'ds_a', { filter, sort, offset: 2, limit: 5, search }));
    };
    read();
    const prepare = vi.spyOn(db, 'prepare');
    for (let i = 0; i < 5; i++) read();
    expect(prepare).not.toHaveBeenCalled();
  });
});
