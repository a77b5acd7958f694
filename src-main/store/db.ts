import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations/index.ts';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

export const DB_FILE_NAME = 'svc.sqlite';

/**
 * Opens (creating if needed) the app database in `dataDir` and brings its
 * schema up to date. `:memory:` gives a private in-memory database for tests.
 */
export function openDatabase(dataDir: string): Db {
  let file: string = dataDir;
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, DB_FILE_NAME);
  }
  const db = new Database(file);
  // WAL lets readers run beside the single writer; FULL sync makes every
  // committed money movement survive a power cut, not only a process crash.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, MIGRATIONS);
  return db;
}

/**
 * A read-only connection to the app database in `file`, beside the main
 * connection (a worker thread's: WAL lets it read while the main one
 * writes). It applies no migrations: the main connection has.
 */
export function openReadOnly(file: string): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}
