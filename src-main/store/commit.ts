import type { Db } from './db.ts';
import { statement } from './statements.ts';

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
  return immediate(db, work);
}

/** SQLite's numbers for the levels: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
const NORMAL = 1;

/**
 * The connection's own level, read at its first unsynced commit: reading the
 * pragma prepares a statement every time (a cached one would report the level
 * of when it was prepared). The app sets the level once, at open (store/db.ts).
 */
const levels = new WeakMap<Db, number>();

export function unsynced<T>(db: Db, work: () => T): T {
  if (db.inTransaction) return immediate(db, work);
  let level = levels.get(db);
  if (level === undefined) {
    level = db.pragma('synchronous', { simple: true }) as number;
    levels.set(db, level);
  }
  if (level <= NORMAL) return immediate(db, work);
  db.exec(`PRAGMA synchronous = ${NORMAL}`);
  try {
    return immediate(db, work);
  } finally {
    db.exec(`PRAGMA synchronous = ${level}`);
  }
}

/**
 * `db.transaction(work).immediate()` without building a new transaction
 * function (five wrappers and their properties) on every call: BEGIN
 * IMMEDIATE, the work, COMMIT, or ROLLBACK if it throws; inside a transaction
 * already, a savepoint, as better-sqlite3 does.
 */
function immediate<T>(db: Db, work: () => T): T {
  const nested = db.inTransaction;
  statement(db, nested ? 'SAVEPOINT svc_commit' : 'BEGIN IMMEDIATE').run();
  try {
    const result = work();
    statement(db, nested ? 'RELEASE svc_commit' : 'COMMIT').run();
    return result;
  } catch (error) {
    if (db.inTransaction) {
      if (nested) {
        statement(db, 'ROLLBACK TO svc_commit').run();
        statement(db, 'RELEASE svc_commit').run();
      } else {
        statement(db, 'ROLLBACK').run();
      }
    }
    throw error;
  }
}
