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
