import { parentPort, workerData } from 'node:worker_threads';
import { releaseHeap } from '../../engine/release-heap.ts';
import { openReadOnly } from '../../store/db.ts';
import { matcherOf } from '../file-pass/tasks.ts';
import { transferablesOf } from '../file-pass/transferables.ts';
import { runScanTask, type ScanTask } from './scan-rows.ts';
import { lowerThisThread } from '../threads/background-priority.ts';

/**
 * One of a dataset scan's slice workers (started by scan-slices.ts, in the
 * scan's own worker): a read-only connection to the app's database, and
 * the per-row work of one range of rows (or one list of rows' words, or
 * one LSH band's pairs) per message, answered in turn. WAL lets it read
 * beside the main connection's writes.
 */

/** A slice to do, or the end: the worker closes its connection and its port, and exits. */
export type SliceRequest = { id: number; task: ScanTask } | { close: true };
export type SliceReply = { id: number; result: unknown } | { id: number; failed: string };

// Background work: the server's own thread and the grid's queries go first (threads/background-priority.ts).
lowerThisThread();
const { file } = workerData as { file: string };
const port = parentPort;
const db = openReadOnly(file);

port?.on('message', (request: SliceRequest) => {
  if ('close' in request) {
    port.close(); // the connection closes below; with nothing left, the thread ends
    releaseHeap(); // on this thread, not later on the main one (engine/release-heap.ts)
    return;
  }
  const { id, task } = request;
  try {
    const result = runScanTask(db, task, (rows) =>
      rows.contamination ? matcherOf(rows.contamination) : null,
    );
    port.postMessage({ id, result } satisfies SliceReply, transferablesOf(result));
  } catch (error) {
    port.postMessage({ id, failed: (error as Error).message } satisfies SliceReply);
  }
});
port?.on('close', () => db.close());
