import Database from 'better-sqlite3';
import type { Db } from './db.ts';

/**
 * Copies the WAL into the database as far as it can without waiting for a
 * reader or a writer (PASSIVE). Returns SQLite's report (one row: busy, log,
 * checkpointed).
 */
export function checkpointWal(db: Db): unknown {
  return db.pragma('wal_checkpoint(PASSIVE)');
}

/**
 * Checkpoints the database in `file` with a connection of its own, closed
 * before it returns (a worker's: see service/datasets/wal-checkpoint.ts).
 */
export function checkpointWalOfFile(file: string): unknown {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return checkpointWal(db);
  } finally {
    db.close();
  }
}

/** The WAL pages after which a commit of `db` checkpoints (0: never, someone else does). */
export function autocheckpointPages(db: Db): number {
  return db.pragma('wal_autocheckpoint', { simple: true }) as number;
}

export function setAutocheckpointPages(db: Db, pages: number): void {
  db.pragma(`wal_autocheckpoint = ${Math.max(0, Math.floor(pages))}`);
}

/** A connection of its own to the database in `file`, for a thread that only checkpoints. */
export function openCheckpointer(file: string): Db {
  return new Database(file, { fileMustExist: true });
}
