import type { MessagePort } from 'node:worker_threads';
import { AppError } from '../../../../src-shared/errors.ts';
import { releaseHeap } from '../../../engine/release-heap.ts';
import { adoptO200kTable } from '../../../engine/bpe/o200k.ts';
import { runBuiltinInThread, warmBuiltin } from '../builtin-run.ts';
import type { FileTask } from '../../file-pass/task-types.ts';
import { transferablesOf } from '../../file-pass/transferables.ts';
import { encodeResult, type FromWorker, type ToWorker } from './wire.ts';
import { encodeError } from '../../threads/wire-error.ts';
import { saveResolveCache } from '../../threads/resolve-cache.ts';

/**
 * The engine worker's work, loaded by its entry (worker.ts) once it has
 * started: runs the slices it is given with the builtin backend, one at a
 * time and in the order they came, in this thread. The pool hands over the next slice while one runs, so that this
 * thread never waits for the main thread between slices. A cancel reaches a
 * running slice because the engine yields to the event loop every few
 * milliseconds (the engine then stops as it would on the main thread); a
 * slice cancelled before it started is answered as failed at once.
 */

type Run = Extract<ToWorker, { type: 'run' }>;

/**
 * A file pass's tasks (a pass's, a merge's), their code loaded with the
 * first one: a worker of the app's runs, which sends it operations only,
 * never loads it (~120 modules, ~55 ms of CPU in every such worker's start).
 */
let fileTasks: Promise<typeof import('../../file-pass/tasks.ts')> | undefined;

const loadFileTasks = (): Promise<typeof import('../../file-pass/tasks.ts')> =>
  (fileTasks ??= import('../../file-pass/tasks.ts'));

async function runFile(task: FileTask, signal: AbortSignal): Promise<unknown> {
  return (await loadFileTasks()).runFileTask(task, signal);
}

/**
 * Loads ahead what a prestarted worker's slices will run, the file tasks
 * first: a pass's first slices are its scan's, which need no engine. A
 * failure to load is not reported here: the first slice that needs the
 * code fails with it.
 */
function warm({ engine, fileTasks: file }: Extract<ToWorker, { type: 'warm' }>): void {
  const first = file ? loadFileTasks().then(noop, noop) : Promise.resolve();
  const warmed = engine ? first.then(warmBuiltin) : first;
  void warmed.then(saveResolveCache, noop);
}

const noop = (): void => undefined;

let port: MessagePort | undefined;
const queue: Run[] = [];
let running: { id: number; controller: AbortController } | undefined;

async function run({ id, task }: Run): Promise<{ reply: FromWorker; transfer: ArrayBuffer[] }> {
  const controller = new AbortController();
  running = { id, controller };
  try {
    if (task.kind !== 'operation') {
      const result = await runFile(task, controller.signal);
      // Its large arrays move to the main thread rather than being copied.
      return { reply: { type: 'done', id, result }, transfer: transferablesOf(result) };
    }
    const result = await runBuiltinInThread(task.request, controller.signal);
    return { reply: { type: 'done', id, result: encodeResult(result) }, transfer: [] };
  } catch (error) {
    return { reply: { type: 'failed', id, error: encodeError(error) }, transfer: [] };
  } finally {
    running = undefined;
  }
}

let draining = false;

async function drain(): Promise<void> {
  draining = true;
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { reply, transfer } = await run(next);
    port?.postMessage(reply, transfer);
    // What the slice's code loading learned (threads/resolve-cache.ts; nothing to do once saved).
    saveResolveCache();
  }
  draining = false;
}

/** Handles one message from the pool (worker.ts hands on those that came while this loaded). */
export function handle(message: ToWorker): void {
  if (!port) throw new Error('the engine worker handles messages once it serves');
  if (message.type === 'tables') {
    adoptO200kTable(message.o200k);
    return;
  }
  if (message.type === 'warm') {
    warm(message);
    return;
  }
  if (message.type === 'retire') {
    // Its pages freed here rather than by the main thread later (engine/release-heap.ts).
    releaseHeap();
    process.exit(0);
  }
  if (message.type === 'run') {
    queue.push(message);
    if (!draining) void drain();
    return;
  }
  if (running?.id === message.id) running.controller.abort();
  const waiting = queue.findIndex((queued) => queued.id === message.id);
  if (waiting >= 0) {
    queue.splice(waiting, 1);
    const reply: FromWorker = {
      type: 'failed',
      id: message.id,
      error: encodeError(new AppError('cancelled', 'the run was cancelled')),
    };
    port.postMessage(reply);
  }
}

/** Serves the pool on `to`: from now on this thread answers its slices. */
export function serve(to: MessagePort): void {
  port = to;
  port.on('message', handle);
  const ready: FromWorker = { type: 'ready' };
  port.postMessage(ready);
}
