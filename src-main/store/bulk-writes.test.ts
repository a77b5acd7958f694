import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkpointOffThread } from '../service/datasets/wal-checkpoint.ts';
import { beginBulk, endBulk } from './bulk-writes.ts';
import { unsynced } from './commit.ts';
import { openDatabase, type Db } from './db.ts';

/**
 * An import's bulk writes: automatic checkpoints stay off from its start
 * until its WAL has been checkpointed (off the main thread where it can be),
 * so no commit on the main thread copies a large WAL in the meantime.
 */

const autocheckpoint = (db: Db): number =>
  db.pragma('wal_autocheckpoint', { simple: true }) as number;

const fileSize = (db: Db): number => statSync(db.name).size;

function grownDatabase(): Db {
  const db = openDatabase(mkdtempSync(join(tmpdir(), 'svc-bulk-')));
  db.exec('CREATE TABLE t (x TEXT)');
  return db;
}

const fill = (db: Db): void =>
  unsynced(db, () => {
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(500));
  });

/** A checkpoint resolved by the test, to see what holds before it ends. */
function heldCheckpoint(): { run: (db: Db) => Promise<boolean>; finish: () => Promise<void> } {
  let release: (done: boolean) => void = () => undefined;
  const started = new Promise<boolean>((resolve) => (release = resolve));
  return {
    run: () => started,
    finish: async () => {
      release(true);
      await started;
      await Promise.resolve();
    },
  };
}

describe('bulk writes', () => {
  it('keeps automatic checkpoints off until the WAL is checkpointed', async () => {
    const db = grownDatabase();
    const before = autocheckpoint(db);
    expect(before).toBeGreaterThan(0);
    beginBulk(db);
    fill(db);
    const checkpoint = heldCheckpoint();
    endBulk(db, checkpoint.run);
    expect(autocheckpoint(db)).toBe(0);
    await checkpoint.finish();
    expect(autocheckpoint(db)).toBe(before);
    db.close();
  });

  it('an import begun during the checkpoint keeps them off; its own end restores them', async () => {
    const db = grownDatabase();
    const before = autocheckpoint(db);
    beginBulk(db);
    const first = heldCheckpoint();
    endBulk(db, first.run);
    beginBulk(db);
    await first.finish();
    expect(autocheckpoint(db)).toBe(0);
    const second = heldCheckpoint();
    endBulk(db, second.run);
    await second.finish();
    expect(autocheckpoint(db)).toBe(before);
    db.close();
  });

  it('checkpoints on the main thread when the worker cannot', async () => {
    const db = grownDatabase();
    const before = autocheckpoint(db);
    beginBulk(db);
    fill(db);
    // The rows are in the WAL only: the database file has not grown yet.
    expect(fileSize(db)).toBeLessThan(100_000);
    endBulk(db, () => Promise.resolve(false));
    await new Promise((resolve) => setImmediate(resolve));
    expect(fileSize(db)).toBeGreaterThan(1_000_000);
    expect(autocheckpoint(db)).toBe(before);
    db.close();
  });

  it('a worker thread copies the WAL into the database', async () => {
    const db = grownDatabase();
    beginBulk(db);
    fill(db);
    expect(fileSize(db)).toBeLessThan(100_000);
    expect(await checkpointOffThread(db)).toBe(true);
    expect(fileSize(db)).toBeGreaterThan(1_000_000);
    endBulk(db);
    db.close();
  });
});
