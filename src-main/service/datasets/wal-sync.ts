import { open } from 'node:fs/promises';
import type { Db } from '../../store/db.ts';

/**
 * Flushes the database's WAL file to the disk from libuv's thread pool, so
 * the fsync'd commit that follows has only its own frames to flush. An
 * import's batches commit without an fsync: at its end the WAL holds every
 * row (1 GB at a million), and the final commit's fsync, on the main
 * thread, wrote them all out while the server waited (0.4 s measured, and
 * ~36 ms of the thread's CPU in the kernel at 200k rows). fsync applies to
 * the file, whichever descriptor asks.
 *
 * One rule for every caller (an import's end, a decision, a delete, a run's
 * end): what they wrote must be on the disk when they say it is done, so a
 * flush that fails is the caller's error. It is not tried again on another
 * descriptor: after a failed fsync, Linux may report the next one fine with
 * the pages lost ("fsyncgate"), which would hide the failure.
 */
export async function syncWalOffThread(
  db: Db,
  offThread: (path: string) => Promise<void> = datasyncInPool,
): Promise<void> {
  if (db.memory || !db.open) return;
  await offThread(`${db.name}-wal`);
}

/** No WAL file (nothing written yet) has nothing to flush. */
const absent = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function datasyncInPool(path: string): Promise<void> {
  const wal = await open(path, 'r').catch((error: unknown) => {
    if (absent(error)) return null;
    throw error;
  });
  if (!wal) return;
  try {
    await wal.datasync();
  } finally {
    await wal.close();
  }
}
