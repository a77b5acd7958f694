import type { Db } from './db.ts';

/**
 * How a write transaction reaches the disk. The connection runs in WAL mode
 * with synchronous=FULL (store/db.ts): every COMMIT waits for an fsync of the
 * WAL, so what it wrote survives a power cut. Some writes do not need that
 * and should not pay an fsync on every request:
 *
 * - `durable` commits with the connection's own level (FULL): charges,
 *   grants, the start-up release of open holds.
 * - `unsynced` commits this one transaction with synchronous=NORMAL: the
 *   frames are written to the WAL (so they survive kill -9: the OS has them)
 *   but not fsync'd. A power cut may drop them, and only them and what came
 *   after: WAL frames are checksummed in a chain, so recovery keeps a prefix
 *   of the commits, never a later one without an earlier one. The next
 *   durable commit fsyncs the WAL file, and with it every unsynced frame
 *   before it.
 *
 * That is exactly what a hold needs (issue 14): if a power cut drops a hold,
 * nothing was charged against it and nothing was delivered (the response
 * goes out only after the settle, which is durable and carries the hold to
 * disk with it); if the hold survives, the start-up pass releases it. The
 * same holds for a release: a lost release leaves its hold open, which the
 * start-up pass releases again.
 *
 * SQLite refuses to change the level inside a transaction, so `unsynced`
 * nested in another transaction simply joins it (a savepoint) and the outer
 * commit decides. The pragma is run with `exec`, never as a cached
 * statement: SQLite applies `PRAGMA synchronous = N` when the statement is
 * prepared, so re-running a prepared one does nothing.
 */

export function durable<T>(db: Db, work: () => T): T {
  return db.transaction(work).immediate();
}

/** SQLite's numbers for the levels: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
const NORMAL = 1;

export function unsynced<T>(db: Db, work: () => T): T {
  if (db.inTransaction) return db.transaction(work).immediate();
  const level = db.pragma('synchronous', { simple: true }) as number;
  if (level <= NORMAL) return db.transaction(work).immediate();
  db.exec(`PRAGMA synchronous = ${NORMAL}`);
  try {
    return db.transaction(work).immediate();
  } finally {
    db.exec(`PRAGMA synchronous = ${level}`);
  }
}
