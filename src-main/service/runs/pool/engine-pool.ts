import { availableParallelism } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { workerScript } from '../../../engine/worker-script.ts';
import { oneCore } from '../../threads/one-core.ts';
import { EnginePool } from './pool.ts';

/**
 * The process's engine pool and how many workers it has, apart from
 * pooled.ts (which loads the engine to tell it from an upstream backend):
 * a command can start the pool's workers before it loads anything else
 * (cli/pool-ahead.ts).
 */

let setting: number | null = null;
let cap = Infinity;
let pool: EnginePool | undefined;
let warned = false;

/**
 * How many engine workers run: the env's SVC_ENGINE_WORKERS, else the
 * setting, else one per core; at most the process's cap (`capEngineWorkers`).
 */
export function engineWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return Math.min(chosenWorkers(env), cap);
}

function chosenWorkers(env: NodeJS.ProcessEnv): number {
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

/**
 * No more than `most` (at least one) engine workers for the rest of this
 * process's life: a command's pass over a small file can keep no more busy
 * than it has slices (cli/pool-ahead.ts). Infinity lifts it (tests).
 */
export function capEngineWorkers(most: number): void {
  cap = Math.max(1, most);
  fitPoolToWorkers();
}

/** A pool already started takes the worker count now in force. */
function fitPoolToWorkers(): void {
  const size = engineWorkers();
  if (pool && size > 0 && size !== pool.size) pool.resize(size);
}

/** The `engine.workers` setting in force (null: one per core); applies to the next batch. */
export function configureEngineWorkers(workers: number | null): void {
  setting = workers;
  fitPoolToWorkers();
}

/** The worker's script (an entry of its own in the bundle: `engine-worker.js`). */
export function engineWorkerScript(): URL {
  return workerScript(import.meta.url, 'worker.ts', 'engine-worker.js');
}

export function enginePool(): EnginePool {
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

/**
 * Starts a file pass's workers ahead (`EnginePool.prestart`) where its
 * slices will run on them: not on one core, where they run in the calling
 * thread (parallel-pass.ts `TaskRunner`, threads/one-core.ts).
 */
export function prestartFilePass(
  pool: EnginePool | undefined,
  load: { engine?: boolean; fileTasks?: boolean },
): void {
  if (!oneCore()) pool?.prestart(load);
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

/** Whether a worker of the pool has failed to start (batches then run in the calling thread). */
export function poolUnavailable(): boolean {
  return pool?.unavailable !== undefined;
}
