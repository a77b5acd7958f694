import { availableParallelism } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import type { EngineBackend } from '../../../engine/backend.ts';
import { builtinBackend } from '../../../engine/builtin/backend.ts';
import { workerScript } from '../../../engine/worker-script.ts';
import type { OperationOptions, OperationRequest, OperationResult } from '../contract.ts';
import { mergeResults } from './merge.ts';
import { EnginePool, PoolUnavailable, SliceFailed } from './pool.ts';
import { decodeError, decodeResult } from './wire.ts';

/**
 * When and how a batch runs on the engine pool. Only the builtin engine goes
 * there: it is deterministic and CPU-bound, so slices of a batch run in
 * parallel give exactly the results of one run, and the main thread stays
 * free for other requests meanwhile. An upstream backend waits on a model
 * server (I/O) and stays on the main thread, where its own concurrency
 * applies. A batch smaller than MIN_POOLED_SAMPLES runs in the calling
 * thread: a single sample costs about as much as the hop to a worker and
 * back, and would wait behind the slices of a large batch in the pool.
 */

export const MIN_POOLED_SAMPLES = 16;
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

let setting: number | null = null;
let pool: EnginePool | undefined;
let warned = false;

/** How many engine workers run: the env's SVC_ENGINE_WORKERS, else the setting, else one per core. */
export function engineWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_ENGINE_WORKERS?.trim();
  if (raw) {
    const n = Number(raw);
    if (Number.isInteger(n) && n >= 0 && n <= 256) return n;
    if (!warned) {
      warned = true;
      console.error(`SVC_ENGINE_WORKERS must be a whole number from 0 to 256, got ${raw}: ignored`);
    }
  }
  return setting ?? availableParallelism();
}

/** The `engine.workers` setting in force (null: one per core); applies to the next batch. */
export function configureEngineWorkers(workers: number | null): void {
  setting = workers;
  const size = engineWorkers();
  if (pool && size > 0 && size !== pool.size) pool.resize(size);
}

export function shouldPool(request: OperationRequest, backend: EngineBackend): boolean {
  return (
    backend === builtinBackend &&
    isMainThread &&
    request.samples.length >= MIN_POOLED_SAMPLES &&
    engineWorkers() > 0 &&
    !pool?.unavailable
  );
}

/** The worker's script (an entry of its own in the bundle: `engine-worker.js`). */
export function engineWorkerScript(): URL {
  return workerScript(import.meta.url, 'worker.ts', 'engine-worker.js');
}

function enginePool(): EnginePool {
  pool ??= new EnginePool(engineWorkerScript(), engineWorkers());
  return pool;
}

/**
 * The pool a file's whole pass runs on (service/file-pass), or undefined
 * when the engine runs in the calling thread (no workers, or a worker itself).
 */
export function filePassPool(): EnginePool | undefined {
  return isMainThread && engineWorkers() > 0 ? enginePool() : undefined;
}

/** Slices run so far per worker thread id (empty before the pool's first batch). */
export function enginePoolSlices(): ReadonlyMap<number, number> {
  return pool?.slicesByThread ?? new Map();
}

/** Stops the pool's workers (tests; a later batch starts new ones). */
export async function closeEnginePool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.close();
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
