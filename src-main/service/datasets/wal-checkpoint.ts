import { Worker } from 'node:worker_threads';
import { workerScript } from '../../engine/worker-script.ts';
import type { Db } from '../../store/db.ts';

/**
 * Checkpoints the database's WAL on a worker thread (wal-checkpoint-worker.ts,
 * in the desktop app's bundle an entry of its own). Resolves true once done,
 * false when no worker could do it (an in-memory database, a worker that
 * failed): the caller then checkpoints itself.
 */
export function checkpointOffThread(db: Db): Promise<boolean> {
  if (db.memory || !db.open) return Promise.resolve(false);
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(
        workerScript(import.meta.url, 'wal-checkpoint-worker.ts', 'wal-checkpoint-worker.js'),
        { name: 'svc-checkpoint', workerData: { file: db.name } },
      );
    } catch (error) {
      console.error('WAL checkpoint: no worker, checkpointing on the main thread:', error);
      resolve(false);
      return;
    }
    worker.once('message', () => resolve(true));
    worker.once('error', (error) => {
      console.error('WAL checkpoint: the worker failed, checkpointing on the main thread:', error);
      resolve(false);
    });
    // Without a message first, it did not checkpoint (a second resolve is a no-op).
    worker.once('exit', () => resolve(false));
  });
}
