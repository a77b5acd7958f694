import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../../../src-shared/errors.ts';
import { lineSlices } from './line-slices.ts';
import type { CutterMessage, CutterRequest } from './line-cutter.ts';

/**
 * Cuts a file into slices of whole lines off the main thread (see
 * line-cutter.ts): reading every byte to find the line ends and count them
 * was the biggest single cost left on a file pass's main thread. Each slice
 * is posted as it is found; a stop request ends the reading at the next slice.
 */

const port = parentPort;
if (!port) throw new Error('the line cutter runs in a worker thread');
const { path, target } = workerData as CutterRequest;
const stop = new AbortController();
port.on('message', () => stop.abort());

const post = (message: CutterMessage): void => port.postMessage(message);
try {
  for await (const slice of lineSlices(path, stop.signal, target)) post({ slice });
  post({ done: true });
} catch (error) {
  if (!stop.signal.aborted) {
    post({
      error: error instanceof Error ? error.message : String(error),
      ...(error instanceof AppError && { code: error.code }),
    });
  }
}
port.close();
