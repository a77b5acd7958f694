import { parentPort, workerData } from 'node:worker_threads';
import { releaseHeap } from '../../engine/release-heap.ts';
import { lowerThisThread } from '../threads/background-priority.ts';
import { encodeError } from '../threads/wire-error.ts';
import { rowsAfter } from './import-batch.ts';
import {
  checkSameFile,
  READ_AHEAD,
  readHere,
  type FromReader,
  type ReaderJob,
  type ToReader,
} from './import-reader.ts';

/**
 * Reads an import's file (import-reader.ts): its batches, then `done` or
 * the error that stopped it, as it would on the import's thread, but only
 * the rows after the first ones, which that thread read itself (and mapped:
 * it told the mapping). It waits while READ_AHEAD batches are unread there.
 */

// Bulk work: the server's own thread and the grid's queries (a search while importing) go first.
lowerThisThread();
const port = parentPort;
if (!port) throw new Error("the import's reader runs in a worker thread");
const job = workerData as ReaderJob;

let credit = READ_AHEAD;
let wake: (() => void) | undefined;
let after: number | undefined;
port.on('message', (message: ToReader) => {
  if (message === 'more') credit++;
  else after = message.row;
  wake?.();
});

const post = (message: FromReader): void => port.postMessage(message);

try {
  checkSameFile(job.path, job.began);
  const batches = readHere(job.path, {
    format: job.format,
    shape: job.shape,
    mapping: job.mapping,
    paths: job.paths,
    // The import's thread told the mapping: it read the same first rows.
    onMapping: () => undefined,
  });
  for await (const read of batches) {
    // The import's thread read the first batch itself: it says how far that went.
    while (after === undefined) await new Promise<void>((resolve) => (wake = resolve));
    const batch = rowsAfter(read, after);
    if (!batch) continue;
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit--;
    post({ type: 'batch', batch });
  }
  post({ type: 'done' });
} catch (error) {
  post({ type: 'failed', error: encodeError(error) });
}
// Nothing more to hear: the thread ends once its last messages are out.
port.removeAllListeners('message');
port.unref();
// Then it ends, its heap given back on this thread (see engine/release-heap.ts).
releaseHeap();
