import { parentPort } from 'node:worker_threads';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { runOperationInThread } from '../operation.ts';
import { encodeError, encodeResult, type FromWorker, type ToWorker } from './wire.ts';

/**
 * An engine worker of the pool (pool.ts): runs the slices it is given with
 * the builtin backend, one at a time, in this thread. A cancel reaches a
 * running slice because the engine yields to the event loop every few
 * milliseconds; the engine then stops as it would on the main thread.
 */

const port = parentPort;
if (!port) throw new Error('the engine worker runs in a worker thread of the engine pool');

const running = new Map<number, AbortController>();

async function run(id: number, request: Extract<ToWorker, { type: 'run' }>['request']) {
  const controller = new AbortController();
  running.set(id, controller);
  let reply: FromWorker;
  try {
    const result = await runOperationInThread(request, {
      backend: builtinBackend,
      signal: controller.signal,
    });
    reply = { type: 'done', id, result: encodeResult(result) };
  } catch (error) {
    reply = { type: 'failed', id, error: encodeError(error) };
  } finally {
    running.delete(id);
  }
  port?.postMessage(reply);
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'cancel') running.get(message.id)?.abort();
  else void run(message.id, message.request);
});

const ready: FromWorker = { type: 'ready' };
port.postMessage(ready);
