import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../store/db.ts';
import { syncWalOffThread } from './wal-sync.ts';

/**
 * Every caller of the flush (an import's end, a decision, a delete, a run's
 * end) answers only once what it wrote is on the disk: a flush that fails off
 * the thread is done again on it, and only a disk that fails both ways is an
 * error for the caller.
 */
describe('flushing the WAL before answering', () => {
  afterEach(() => vi.restoreAllMocks());

  function written(): Db {
    const db = openDatabase(mkdtempSync(join(tmpdir(), 'svc-wal-sync-')));
    db.exec('CREATE TABLE t (x TEXT); INSERT INTO t VALUES (1)');
    return db;
  }

  it('flushes in the pool when it can', async () => {
    const db = written();
    const offThread = vi.fn(() => Promise.resolve());
    await syncWalOffThread(db, offThread);
    expect(offThread).toHaveBeenCalledWith(`${db.name}-wal`);
    await expect(syncWalOffThread(db)).resolves.toBeUndefined();
    db.close();
  });

  it('flushes on the thread when the pool fails, and says so', async () => {
    const db = written();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(
      syncWalOffThread(db, () => Promise.reject(new Error('EIO from the pool'))),
    ).resolves.toBeUndefined();
    expect(String(logged.mock.calls[0]?.[0])).toContain('flushing on it');
    db.close();
  });

  it('gives the caller the error when the disk fails both ways', async () => {
    // A WAL path under a regular file: opening it fails (ENOTDIR), in the pool and here.
    const file = join(mkdtempSync(join(tmpdir(), 'svc-wal-sync-')), 'plain');
    writeFileSync(file, '');
    const db = { memory: false, open: true, name: join(file, 'db') } as unknown as Db;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(syncWalOffThread(db)).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('has nothing to flush before anything is written, or in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-wal-sync-'));
    const db = { memory: false, open: true, name: join(dir, 'none.db') } as unknown as Db;
    await expect(syncWalOffThread(db)).resolves.toBeUndefined();
    const offThread = vi.fn(() => Promise.resolve());
    await syncWalOffThread(
      { memory: true, open: true, name: ':memory:' } as unknown as Db,
      offThread,
    );
    expect(offThread).not.toHaveBeenCalled();
  });
});
