import { runOnce, workerScript } from '../../engine/worker-script.ts';
import type { Db } from '../../store/db.ts';

/**
 * Checkpoints the database's WAL on a worker thread (wal-checkpoint-worker.ts,
 * in the desktop app's bundle an entry of its own). Resolves true once done,
 * false when no worker could do it (an in-memory database, a worker that
 * failed): the caller then checkpoints itself.
 */
export async function checkpointOffThread(db: Db): Promise<boolean> {
  if (db.memory || !db.open) return false;
  const script = workerScript(
    import.meta.url,
    'wal-checkpoint-worker.ts',
    'wal-checkpoint-worker.js',
  );
  try {
    await runOnce(script, { file: db.name }, 'svc-checkpoint');
    return true;
  } catch (error) {
    console.error('WAL checkpoint: no worker, checkpointing on the main thread:', error);
    return false;
  }
}
