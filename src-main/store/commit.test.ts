import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durable, unsynced } from './commit.ts';
import { openDatabase, type Db } from './db.ts';

const level = (db: Db): number => db.pragma('synchronous', { simple: true }) as number;
const FULL = 2;
const NORMAL = 1;

function fresh(): Db {
  const db = openDatabase(mkdtempSync(join(tmpdir(), 'svc-commit-')));
  db.exec('CREATE TABLE t (x INTEGER)');
  return db;
}
const rows = (db: Db): number[] =>
  (db.prepare('SELECT x FROM t ORDER BY rowid').all() as { x: number }[]).map((r) => r.x);

describe('commits with and without an fsync', () => {
  it('commits unsynced at NORMAL and puts the connection back to FULL', () => {
    const db = fresh();
    expect(level(db)).toBe(FULL);
    const seen = unsynced(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run();
      return level(db);
    });
    expect(seen).toBe(NORMAL);
    expect(level(db)).toBe(FULL);
    expect(durable(db, () => level(db))).toBe(FULL);
    expect(rows(db)).toEqual([1]);
  });

  it('rolls back and restores FULL when the work throws', () => {
    const db = fresh();
    expect(() =>
      unsynced(db, () => {
        db.prepare('INSERT INTO t VALUES (1)').run();
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(level(db)).toBe(FULL);
    expect(db.inTransaction).toBe(false);
    expect(rows(db)).toEqual([]);
  });

  it('joins an enclosing transaction: the outer commit decides, a failing inner part alone is undone', () => {
    const db = fresh();
    durable(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run();
      // SQLite refuses to change the level inside a transaction: the inner work keeps FULL.
      expect(unsynced(db, () => level(db))).toBe(FULL);
      expect(() =>
        unsynced(db, () => {
          db.prepare('INSERT INTO t VALUES (2)').run();
          throw new Error('inner');
        }),
      ).toThrow('inner');
      unsynced(db, () => db.prepare('INSERT INTO t VALUES (3)').run());
    });
    expect(rows(db)).toEqual([1, 3]);
    expect(level(db)).toBe(FULL);
  });

  it('leaves a connection opened at a lower level as it was', () => {
    const db = fresh();
    db.pragma('synchronous = OFF');
    expect(unsynced(db, () => level(db))).toBe(0);
    expect(level(db)).toBe(0);
  });

  it('takes the write lock at BEGIN (immediate), so a check and its write are atomic', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-commit-lock-'));
    const a = openDatabase(dir);
    const b = openDatabase(dir);
    b.pragma('busy_timeout = 0');
    a.exec('CREATE TABLE t (x INTEGER)');
    durable(a, () => {
      // Before any write of `a`, another writer is already locked out.
      expect(() => b.exec('INSERT INTO t VALUES (9)')).toThrow(/locked|busy/i);
    });
    a.close();
    b.close();
  });
});
