import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './db.ts';
import { migrate, type Migration } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('migrate', () => {
  it('applies every migration once, in order, and is idempotent', () => {
    const db = new Database(':memory:');
    expect(migrate(db, MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(migrate(db, MIGRATIONS)).toEqual([]);
    const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
  });

  it('rolls a failing migration back entirely', () => {
    const db = new Database(':memory:');
    const broken: Migration[] = [
      { version: 1, name: 'ok', up: 'CREATE TABLE a (x INTEGER);' },
      { version: 2, name: 'broken', up: 'CREATE TABLE b (x INTEGER); SELECT * FROM missing;' },
    ];
    expect(() => migrate(db, broken)).toThrow(/missing/);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    expect(tables).toContainEqual({ name: 'a' });
    expect(tables).not.toContainEqual({ name: 'b' });
    expect(db.prepare('SELECT max(version) AS v FROM schema_migrations').get()).toEqual({ v: 1 });
  });

  it('refuses a database written by a newer app', () => {
    const db = new Database(':memory:');
    migrate(db, [
      { version: 1, name: 'a', up: 'SELECT 1;' },
      { version: 2, name: 'b', up: 'SELECT 1;' },
    ]);
    expect(() => migrate(db, [{ version: 1, name: 'a', up: 'SELECT 1;' }])).toThrow(/newer/);
  });

  it('rejects gaps in migration versions', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [{ version: 2, name: 'x', up: 'SELECT 1;' }])).toThrow(/1\.\.n/);
  });
});

describe('openDatabase', () => {
  it('creates the data dir and a WAL database with the owner account', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const db = openDatabase(dir);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT id, name FROM accounts').all()).toEqual([{ id: 1, name: 'owner' }]);
    db.close();
    // Reopening keeps the data and applies nothing twice.
    const again = openDatabase(dir);
    expect(again.prepare('SELECT count(*) AS n FROM accounts').get()).toEqual({ n: 1 });
    again.close();
  });
});
