import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../store/db.ts';
import { syncWalOffThread } from './wal-sync.ts';

/**
 * Every caller of the flush (an import's end, a decision, a delete, a run's
 * end) says it is done only once what it wrote is on the disk: a flush that
 * fails is the caller's error, never tried again on another descriptor (which
 * Linux may report fine after a failed fsync, the pages lost).
 */
describe('flushing the WAL before answering', () => {
  function written(): Db {
    const db = openDatabase(mkdtempSync(join(tmpdir(), 'svc-wal-sync-')));
    db.exec('CREATE TABLE t (x TEXT); INSERT INTO t VALUES (1)');
    return db;
  }

  it("flushes the database's WAL in the pool", async () => {
    const db = written();
    const offThread = vi.fn(() => Promise.resolve());
    await syncWalOffThread(db, offThread);
    expect(offThread).toHaveBeenCalledWith(`${db.name}-wal`);
    await expect(syncWalOffThread(db)).resolves.toBeUndefined();
    db.close();
  });

  it('gives the caller the error of a flush that fails, once', async () => {
    const db = written();
    const offThread = vi.fn(() => Promise.reject(new Error('EIO')));
    await expect(syncWalOffThread(db, offThread)).rejects.toThrow('EIO');
    expect(offThread).toHaveBeenCalledTimes(1);
    // A WAL path under a regular file: opening it fails (ENOTDIR).
    const file = join(mkdtempSync(join(tmpdir(), 'svc-wal-sync-')), 'plain');
    writeFileSync(file, '');
    const broken = { memory: false, open: true, name: join(file, 'db') } as unknown as Db;
    await expect(syncWalOffThread(broken)).rejects.toMatchObject({ code: 'ENOTDIR' });
    db.close();
  });

  it('has nothing to flush before anything is written, or in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-wal-sync-'));
    const db = { memory: false, open: true, name: join(dir, 'none.db') } as unknown as Db;
    await expect(syncWalOffThread(db)).resolves.toBeUndefined();
    const offThread = vi.fn(() => Promise.resolve());
    const memory = { memory: true, open: true, name: ':memory:' } as unknown as Db;
    await syncWalOffThread(memory, offThread);
    expect(offThread).not.toHaveBeenCalled();
  });
});
