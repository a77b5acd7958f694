import { parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { lowerThisThread } from '../../threads/background-priority.ts';
import { useResolveCache } from '../../threads/resolve-cache.ts';
import type { ToWorker } from './wire.ts';
// This thread writes rows it is handed: a BigInt in one (an integer past 2^53) as its digits.
import '../../../../src-shared/exact-json.ts';

/**
 * An engine worker of the pool (pool.ts), as it starts: the code that
 * serves slices (worker-slices.ts; the engine and a file pass's tasks load
 * later, when warmed or first asked) is imported only after the messages sent while this thread booted have been
 * read, so that a worker the pool retired meanwhile (a resize down right
 * after a prestart) ends at once, having loaded nothing. One retired while
 * that code loads ends once it has, without loading the engine (which a
 * prestart's `warm` asks for). The other messages are handed on in order.
 */

// Batches of rows: the server's own thread goes first (threads/background-priority.ts).
lowerThisThread();
// Run from source, its imports resolve as they did before (threads/resolve-cache.ts).
useResolveCache();
const port = parentPort;
if (!port) throw new Error('the engine worker runs in a worker thread of the engine pool');

const early: ToWorker[] = [];
/** Reads what has come so far, without waiting: the port's events would only come after the import. */
const readWaiting = (): void => {
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
    early.push(next.message as ToWorker);
  }
};
const retired = (): boolean => early.some((message) => message.type === 'retire');
readWaiting();
// Nothing of its own to give back yet (engine/release-heap.ts is for a heap that held slices).
if (retired()) process.exit(0);
const { handle, serve } = await import('./worker-slices.ts');
// Retired while it loaded: it ends without loading the engine too (a `warm` asked before).
readWaiting();
serve(port);
for (const message of early) if (!(message.type === 'warm' && retired())) handle(message);
