import { parentPort, workerData } from 'node:worker_threads';
import { checkpointWal, openCheckpointer } from '../../store/checkpoint.ts';
import type { KeeperMessage, KeeperReport, KeeperOptions } from './wal-keeper.ts';
import { lowerThisThread } from '../threads/background-priority.ts';

/**
 * Copies the app database's WAL into the database, on a thread of its own,
 * for as long as the app runs (see wal-keeper.ts): PASSIVE checkpoints, which
 * never wait for a reader or a writer, soon after writes and rarely when
 * there are none.
 */

// Background work: the server's own thread and the grid's queries go first (threads/background-priority.ts).
lowerThisThread();
const { file, minMs, maxMs } = workerData as KeeperOptions;
const port = parentPort;
if (!port) throw new Error('wal-keeper-worker runs as a worker thread');

const db = openCheckpointer(file);
let wait = minMs;
let timer: NodeJS.Timeout | undefined;
let last = { log: -1, checkpointed: -1 };
/** Paused while an import writes (its WAL is copied once, after it). */
let paused = false;

function schedule(ms: number): void {
  clearTimeout(timer);
  timer = setTimeout(tick, ms);
}

function tick(): void {
  if (paused) return;
  const [row] = checkpointWal(db) as { busy: number; log: number; checkpointed: number }[];
  const { busy, log, checkpointed } = row ?? { busy: 0, log: 0, checkpointed: 0 };
  const copied = log !== last.log || checkpointed !== last.checkpointed;
  last = { log, checkpointed };
  // Writes came in since the last turn: look again soon. None: back off, up to maxMs.
  wait = copied || checkpointed < log ? minMs : Math.min(maxMs, wait * 2);
  if (copied) port?.postMessage({ log, checkpointed, busy } satisfies KeeperReport);
  schedule(wait);
}

port.on('message', (message: KeeperMessage) => {
  if (message === 'now') schedule(0);
  if (message === 'pause') {
    paused = true;
    clearTimeout(timer);
  }
  if (message === 'resume') {
    paused = false;
    schedule(minMs);
  }
  if (message === 'stop') {
    clearTimeout(timer);
    db.close();
    port.close();
  }
});
schedule(0);
