import { checkpointWal } from './checkpoint.ts';
import type { Db } from './db.ts';

/**
 * An import's writes at the storage's speed. Two costs dominate a big import
 * on a WAL database with FULL sync, neither of which its rows need: an fsync
 * per batch, and the WAL checkpointed into the database every 1000 pages
 * (each page then written twice, interleaved with the inserts). While any
 * import runs, automatic checkpoints are off and its batches commit with
 * NORMAL sync (`unsynced`, store/commit.ts); when the last one ends, the WAL
 * is checkpointed once, off the main thread where a worker can
 * (service/datasets/wal-checkpoint.ts).
 *
 * Nothing durable is weakened: every other commit of the connection still
 * fsyncs the WAL (FULL is restored before the batch's transaction returns,
 * and the pragma is per commit), and an fsync of the WAL makes every frame
 * before it durable too, the import's included. An import cut short by a
 * crash is left 'importing' and cleared at start-up (service/datasets/recover.ts).
 */

/**
 * Per connection: the imports running, the autocheckpoint setting to restore,
 * and a count of bulk writes begun (a checkpoint's end restores the setting
 * only if none began since).
 */
const running = new WeakMap<Db, { imports: number; autocheckpoint: number; begun: number }>();

/**
 * Told when a connection's bulk writes begin (the first import) and end (the
 * last import's checkpoint done): a thread that checkpoints the WAL beside
 * the connection (service/datasets/wal-keeper.ts) waits meanwhile, as the
 * connection's own automatic checkpoints do.
 */
export interface BulkListener {
  begin(): void;
  end(): void;
}
const listeners = new WeakMap<Db, BulkListener>();

export function listenToBulk(db: Db, listener: BulkListener | null): void {
  if (listener) listeners.set(db, listener);
  else listeners.delete(db);
}

export function beginBulk(db: Db): void {
  const state = running.get(db);
  // Also while the last import's checkpoint runs: the setting saved then is the one to restore.
  if (state) {
    state.imports++;
    state.begun++;
    return;
  }
  const autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  running.set(db, { imports: 1, autocheckpoint, begun: 1 });
  db.pragma('wal_autocheckpoint = 0');
  listeners.get(db)?.begin();
}

/**
 * Ends an import's bulk writes. The WAL it grew is checkpointed by
 * `checkpoint` when given (off the main thread: the main thread goes on
 * meanwhile), else, or if it resolves false, here. Automatic checkpoints
 * stay off until it is done: the first commit after a large import would
 * otherwise checkpoint the whole WAL itself, on the main thread (measured:
 * 0.5 s after 200k rows).
 */
export function endBulk(db: Db, checkpoint?: (db: Db) => Promise<boolean>): void {
  const state = running.get(db);
  if (!state) return;
  if (--state.imports > 0) return;
  if (!db.open) {
    running.delete(db);
    listeners.get(db)?.end();
    return;
  }
  const begun = state.begun;
  const restore = (): void => {
    // An import begun meanwhile keeps them off; its own end restores them.
    if (running.get(db) !== state || state.begun !== begun || !db.open) return;
    running.delete(db);
    db.pragma(`wal_autocheckpoint = ${state.autocheckpoint}`);
    listeners.get(db)?.end();
  };
  const here = (): void => {
    if (db.open) checkpointWal(db);
    restore();
  };
  if (!checkpoint) {
    here();
    return;
  }
  checkpoint(db).then(
    (done) => (done ? restore() : here()),
    (error: unknown) => {
      console.error('WAL checkpoint failed, checkpointing on the main thread:', error);
      here();
    },
  );
}
