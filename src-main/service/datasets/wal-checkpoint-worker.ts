import { parentPort, workerData } from 'node:worker_threads';
import { checkpointWalOfFile } from '../../store/checkpoint.ts';

/**
 * Copies the WAL into the database on a thread of its own (see
 * wal-checkpoint.ts), with a connection of its own: after a large import
 * that takes a second or more, which neither the main thread nor the grid's
 * queries should wait for. PASSIVE: it never waits for a reader or a writer.
 */

const { file } = workerData as { file: string };
const result = checkpointWalOfFile(file);
// Told once the connection is closed: the message ends the worker.
parentPort?.postMessage(result);
