import { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode } from '../../../src-shared/errors.ts';
import { workerScript } from '../../engine/worker-script.ts';
import { oneCore } from '../threads/one-core.ts';
import { lineSlices, sliceBytes, type LineSlice } from './line-slices.ts';

/**
 * A file's slices of whole lines (as `lineSlices` cuts them), cut on a
 * thread of its own: the main thread of a file pass only takes them. Where
 * no thread can start, or the process has one core (threads/one-core.ts),
 * this thread cuts them itself.
 */

export interface CutterRequest {
  path: string;
  target: number;
}

export type CutterMessage =
  | { slice: LineSlice }
  | { done: true }
  /** `code`: the AppError's; none, another error (a read that failed) as it read. */
  | { error: string; code?: ErrorCode };

export async function* cutLines(
  path: string,
  signal?: AbortSignal,
  target = sliceBytes(),
): AsyncGenerator<LineSlice> {
  let worker: Worker;
  if (oneCore()) {
    yield* lineSlices(path, signal, target);
    return;
  }
  try {
    worker = new Worker(workerScript(import.meta.url, 'line-cutter-worker.ts', 'line-cutter.js'), {
      workerData: { path, target } satisfies CutterRequest,
      name: 'svc-line-cutter',
    });
  } catch {
    yield* lineSlices(path, signal, target);
    return;
  }
  const arrived: CutterMessage[] = [];
  let wake: (() => void) | undefined;
  // Set by the thread's events: an object, so that the loop below reads them as they are now.
  const heard: { started: boolean; failure?: Error } = { started: false };
  const nudge = (): void => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (message: CutterMessage) => {
    heard.started = true;
    arrived.push(message);
    nudge();
  });
  worker.on('error', (error: Error) => {
    heard.failure = error;
    nudge();
  });
  worker.on('exit', () => {
    heard.failure ??= new Error('the line cutter stopped');
    nudge();
  });
  const onAbort = (): void => nudge();
  signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      if (signal?.aborted) throw new AppError('cancelled', 'the run was cancelled');
      const message = arrived.shift();
      if (message === undefined) {
        if (heard.failure) break;
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      if ('slice' in message) yield message.slice;
      else if ('done' in message) return;
      else
        throw message.code ? new AppError(message.code, message.error) : new Error(message.error);
    }
    // The thread could not run at all (no slice came): this thread cuts the file itself.
    if (!heard.started) yield* lineSlices(path, signal, target);
    else throw heard.failure;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Asked to stop, never terminated: it ends at its next slice (or has ended).
    worker.postMessage('stop');
  }
}
