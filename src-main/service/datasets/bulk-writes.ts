import type { Db } from '../../store/db.ts';

/**
 * An import's writes at the storage's speed. Two costs dominate a big import
 * on a WAL database with FULL sync, neither of which its rows need: an fsync
 * per batch, and the WAL checkpointed into the database every 1000 pages
 * (each page then written twice, interleaved with the inserts). While any
 * import runs, automatic checkpoints are off and its batches commit with
 * NORMAL sync; when the last one ends, the WAL is checkpointed once, off
 * the main thread where a worker can.
 *
 * Nothing durable is weakened: every other commit of the connection still
 * fsyncs the WAL (FULL is restored before the batch's transaction returns,
 * and the pragma is per commit), and an fsync of the WAL makes every frame
 * before it durable too, the import's included. An import cut short by a
 * crash is left 'importing' and cleared at start-up (recover.ts).
 */

const running = new WeakMap<Db, { imports: number; autocheckpoint: number }>();

export function beginBulk(db: Db): void {
  const state = running.get(db);
  if (state) {
    state.imports++;
    return;
  }
  const autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  running.set(db, { imports: 1, autocheckpoint });
  db.pragma('wal_autocheckpoint = 0');
}

/** Runs `write` in one transaction committed without an fsync. */
export function bulkTransaction(db: Db, write: () => void): void {
  const sync = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = NORMAL');
  try {
    db.transaction(write)();
  } finally {
    db.pragma(`synchronous = ${sync}`);
  }
}

/**
 * Ends an import's bulk writes. The WAL it grew is checkpointed by
 * `checkpoint` when given (the grid worker's connection: the main thread
 * goes on meanwhile) and returning true, else here.
 */
export function endBulk(db: Db, checkpoint?: () => boolean): void {
  const state = running.get(db);
  if (!state) return;
  if (--state.imports > 0) return;
  running.delete(db);
  if (!db.open) return;
  db.pragma(`wal_autocheckpoint = ${state.autocheckpoint}`);
  if (checkpoint?.() !== true) db.pragma('wal_checkpoint(PASSIVE)');
}
