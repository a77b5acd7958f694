import { isMainThread } from 'node:worker_threads';
import type { EngineBackend } from '../../../engine/backend.ts';
import { builtinBackend } from '../../../engine/builtin/backend.ts';
import type { OperationOptions, OperationRequest, OperationResult } from '../contract.ts';
import { mergeResults } from './merge.ts';
import { enginePool, engineWorkers, poolUnavailable } from './engine-pool.ts';
import { PoolUnavailable, SliceFailed, type EnginePool } from './pool.ts';
import { decodeResult } from './wire.ts';
import { decodeError } from '../../threads/wire-error.ts';
import type { FileTask } from '../../file-pass/task-types.ts';

export {
  closeEnginePool,
  configureEngineWorkers,
  enginePoolSlices,
  engineWorkers,
  engineWorkerScript,
  filePassPool,
  prestartFilePass,
} from './engine-pool.ts';

/**
 * When and how a batch runs on the engine pool. Only the builtin engine goes
 * there: it is deterministic and CPU-bound, so slices of a batch run in
 * parallel give exactly the results of one run, and the main thread stays
 * free for other requests meanwhile. An upstream backend waits on a model
 * server (I/O) and stays on the main thread, where its own concurrency
 * applies. A batch smaller than MIN_POOLED_SAMPLES runs in the calling
 * thread: a single sample costs about as much as the hop to a worker and
 * back, and would wait behind the slices of a large batch in the pool. Not
 * so a batch holding POOLED_CHARS of text or more, however few its samples:
 * the engine reads ~0.3 µs a character (a 5 MB document audited in one
 * request or edited in the review held the server's thread 1.3-1.5 s; 20 MB,
 * 4-7 s), and one sample's checks cannot yield to the event loop midway.
 */

export const MIN_POOLED_SAMPLES = 16;
/** About 5 ms of the engine's work in the calling thread: more goes to the pool. */
export const POOLED_CHARS = 16_384;

/**
 * Whether the samples' strings (every field, the keys left out) reach
 * `limit` characters; the walk stops as soon as they do, so a batch of small
 * samples costs a few microseconds.
 */
export function holdsChars(samples: readonly unknown[], limit: number): boolean {
  let left = limit;
  const walk = (value: unknown): boolean => {
    if (typeof value === 'string') return (left -= value.length) <= 0;
    if (typeof value !== 'object' || value === null) return false;
    if (Array.isArray(value)) return value.some(walk);
    for (const key in value) if (walk((value as Record<string, unknown>)[key])) return true;
    return false;
  };
  return samples.some(walk);
}
/**
 * Each slice is this fraction of what remains of the batch per worker
 * (guided scheduling): large slices first, then smaller and smaller ones, so
 * that the workers finish a batch within a small slice of each other instead
 * of one idling while the other runs the last large slice.
 */
const SLICES_PER_WORKER = 2;
const MIN_SLICE = 8;
/**
 * The engine counts the tokens of up to 128 samples of a run in one go
 * (PREPARE_AHEAD in engine/operations.ts): slices of 64 cost the workers
 * 7-10 % more CPU per sample than slices of 128 (paired runs). A worker holds
 * two slices at once (the running one and the next), so another batch waits
 * for at most twice this many samples on a worker.
 */
const MAX_SLICE = 128;

/**
 * Whether work over `samples` that reads all of their text (the request's
 * dataset checks, its token count) goes to an engine worker: from
 * POOLED_CHARS of text on, on the main thread, with workers to be had.
 */
function largeForThisThread(samples: readonly unknown[]): boolean {
  return poolCanTake() && holdsChars(samples, POOLED_CHARS);
}

/** On the main thread, with workers configured and able to start. */
function poolCanTake(): boolean {
  return isMainThread && engineWorkers() > 0 && !poolUnavailable();
}

/**
 * One task on an engine worker; `inThread` runs it here instead when no
 * worker can start. A failing sample is named as `inThread` would name it.
 */
async function runTaskOnPool<R>(
  task: FileTask,
  signal: AbortSignal | undefined,
  inThread: () => Promise<R> | R,
  samples: number,
): Promise<R> {
  try {
    const [result] = await enginePool().runTasks<R>([task], signal);
    return result as R;
  } catch (error) {
    if (error instanceof SliceFailed) throw decodeError(error.error, 0, samples);
    if (error instanceof PoolUnavailable) return inThread();
    throw error;
  }
}

/**
 * Work over all of `samples`' text: on an engine worker as `task()` when they
 * hold much text (`largeForThisThread`), else here as `inThread`, which also
 * runs it when no worker can start.
 */
export function runWhereItFits<R>(
  samples: readonly unknown[],
  task: () => FileTask,
  inThread: () => Promise<R> | R,
  signal?: AbortSignal,
): Promise<R> | R {
  if (!largeForThisThread(samples)) return inThread();
  return runTaskOnPool(task(), signal, inThread, samples.length);
}

export function shouldPool(request: OperationRequest, backend: EngineBackend): boolean {
  return (
    backend === builtinBackend &&
    poolCanTake() &&
    (request.samples.length >= MIN_POOLED_SAMPLES || holdsChars(request.samples, POOLED_CHARS))
  );
}

/** Where each slice of a batch of `samples` starts (guided sizes, see SLICES_PER_WORKER). */
export function sliceStarts(samples: number, workers: number): number[] {
  const starts: number[] = [];
  for (let start = 0; start < samples;) {
    starts.push(start);
    const guided = Math.ceil((samples - start) / (workers * SLICES_PER_WORKER));
    start += Math.min(MAX_SLICE, Math.max(MIN_SLICE, guided));
  }
  return starts;
}

/**
 * Runs the batch as slices on the pool and puts the result together as one
 * run would have: slices in order, counts added, usage merged (a sum), a
 * failing sample named by its place in the batch. Progress is reported as
 * slices land. If no worker can start here, the batch runs in this thread.
 * `engine` is the process's pool unless given (the bench compares sizes).
 */
export async function runPooled(
  request: OperationRequest,
  options: OperationOptions,
  inThread: (request: OperationRequest, options: OperationOptions) => Promise<OperationResult>,
  engine: EnginePool = enginePool(),
): Promise<OperationResult> {
  const total = request.samples.length;
  if (total === 0) return inThread(request, options);
  const starts = sliceStarts(total, engine.size);
  const slices = starts.map((start, i): OperationRequest => ({
    ...request,
    samples: request.samples.slice(start, starts[i + 1] ?? total),
  }));
  let done = 0;
  try {
    const results = await engine.run(slices, options.signal, (_, result) => {
      done += result.counts.samples;
      options.onProgress?.(done);
    });
    return mergeResults(
      results.map((result, i) => decodeResult(result, slices[i] as OperationRequest)),
    );
  } catch (error) {
    if (error instanceof SliceFailed) {
      throw decodeError(error.error, starts[error.index] as number, total);
    }
    if (error instanceof PoolUnavailable) {
      console.error(`${error.message}; the engine runs in the main thread`);
      return inThread(request, options);
    }
    throw error;
  }
}
