import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Copies the WAL into the database on a thread of its own (see
 * wal-checkpoint.ts), with a connection of its own: after a large import
 * that takes a second or more, which neither the main thread nor the grid's
 * queries should wait for. PASSIVE: it never waits for a reader or a writer.
 */

const { file } = workerData as { file: string };
const db = new Database(file, { fileMustExist: true });
let result: unknown;
try {
  db.pragma('busy_timeout = 5000');
  result = db.pragma('wal_checkpoint(PASSIVE)');
} finally {
  db.close();
}
// Told once the connection is closed: the message ends the worker.
parentPort?.postMessage(result);
