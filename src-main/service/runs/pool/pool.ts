import { Worker } from 'node:worker_threads';
import { AppError } from '../../../../src-shared/errors.ts';
import { o200kTableParts, o200kTablePartsIfReady } from '../../../engine/bpe/o200k.ts';
import { endAfterGrace } from '../../../engine/worker-script.ts';
import type { OperationRequest } from '../contract.ts';
import type { FromWorker, PoolTask, ToWorker, WireResult } from './wire.ts';
import type { WireError } from '../../threads/wire-error.ts';

/**
 * A pool of worker threads that run the engine (worker.ts), each on one
 * slice of a batch at a time, with the next one already waiting in its
 * queue (DEPTH): a worker that finishes a slice starts the next at once
 * instead of idling while this thread takes its result and hands out
 * another (a round trip that waits for this thread to get a core, which on
 * 2 cores shared by 2 workers and this thread it often has not). Several
 * batches may be in the pool at once (a run of the app, a CLI run, server
 * requests): a batch not yet served goes ahead of those that have been,
 * which then take turns a slice each, so a small batch arriving behind a
 * large one waits for the slices already handed to a worker (at most
 * DEPTH), not for the whole.
 *
 * Workers start on first use (~0.3-1 s: each loads the engine) and stay
 * while there is work, unreferenced while idle so that they never keep a
 * process (the CLI) alive on their own. Each holds ~130 MB (its own copy of
 * the engine's code and tables), so one idle for IDLE_MS exits.
 */

/** A slice failed in its worker: the caller maps `error` back to the batch. */
export class SliceFailed extends Error {
  readonly index: number;
  readonly error: WireError;
  constructor(index: number, error: WireError) {
    super(
      `slice ${index} failed: ${error.kind === 'sample' ? error.cause.message : error.message}`,
    );
    this.name = 'SliceFailed';
    this.index = index;
    this.error = error;
  }
}

/** No worker could start here (its script is missing, threads are unavailable). */
export class PoolUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the engine workers cannot start: ${String(cause)}`, { cause });
    this.name = 'PoolUnavailable';
  }
}

interface Slice {
  id: number;
  index: number;
  task: PoolTask;
  job: Job;
}

interface Job {
  pending: Slice[];
  running: Set<Slice>;
  results: unknown[];
  remaining: number;
  settled: boolean;
  served: boolean;
  onSlice: (index: number, result: unknown) => void;
  resolve: (results: unknown[]) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  thread: Worker;
  ready: boolean;
  /** Handed to the worker, in the order it runs them (the first is running). */
  slices: Slice[];
  idleTimer: NodeJS.Timeout | undefined;
}

const IDLE_MS = 60_000;

/**
 * From this many workers, a table every worker needs and this thread does
 * not (a file pass's tokenizer table and contamination index) is built here
 * once, in shared memory, while the workers load their modules, and sent to
 * them. Below it the workers build their own: with one worker this thread
 * would only build it in its stead, with two it saves one build and costs
 * this thread (whose CPU is the pass's serial part) as much.
 */
export const SHARE_TABLES_FROM = 3;

/** Whether a pass on `workers` workers has its shared tables built by its own thread. */
export const sharesTables = (workers: number): boolean => workers >= SHARE_TABLES_FROM;
/** Slices handed to a worker at once: the running one and the next. */
const DEPTH = 2;

const cancelled = (): AppError => new AppError('cancelled', 'the run was cancelled');

export class EnginePool {
  readonly #script: URL;
  #size: number;
  readonly #workers = new Set<PoolWorker>();
  /** Jobs with slices still to hand out, in the order they are served. */
  readonly #queue: Job[] = [];
  #nextId = 1;
  /** Slices run per worker thread (by thread id): shows that every thread takes part. */
  readonly #slicesByThread = new Map<number, number>();
  #unavailable: PoolUnavailable | undefined;

  constructor(script: URL, size: number) {
    this.#script = script;
    this.#size = Math.max(1, size);
  }

  get size(): number {
    return this.#size;
  }

  /** Whether a worker has failed to start (the caller runs the engine in-thread instead). */
  get unavailable(): PoolUnavailable | undefined {
    return this.#unavailable;
  }

  /** Workers started and not yet retired (0: the next slice waits for a thread to start). */
  get live(): number {
    return this.#workers.size;
  }

  get slicesByThread(): ReadonlyMap<number, number> {
    return this.#slicesByThread;
  }

  resize(size: number): void {
    this.#size = Math.max(1, size);
    for (const worker of [...this.#workers]) {
      if (this.#workers.size <= this.#size) break;
      if (worker.slices.length === 0) this.#retire(worker);
    }
    this.#dispatch();
  }

  /**
   * Runs each request in a worker; results in the order of `requests`.
   * `onSlice` hears of each as it lands. The first failure (or the signal)
   * rejects at once: the job's slices not yet started are dropped and the
   * running ones told to stop.
   */
  run(
    requests: readonly OperationRequest[],
    signal: AbortSignal | undefined,
    onSlice: (index: number, result: WireResult) => void = () => undefined,
  ): Promise<WireResult[]> {
    return this.runTasks<WireResult>(
      requests.map((request) => ({ kind: 'operation', request })),
      signal,
      onSlice,
    );
  }

  /**
   * Runs each task in a worker as `run` does requests: an operation, or a
   * slice of a file's pass (service/file-pass); `R` is what the tasks give.
   */
  runTasks<R>(
    tasks: readonly PoolTask[],
    signal: AbortSignal | undefined,
    onSlice: (index: number, result: R) => void = () => undefined,
  ): Promise<R[]> {
    if (this.#unavailable) return Promise.reject(this.#unavailable);
    if (signal?.aborted) return Promise.reject(cancelled());
    if (tasks.length === 0) return Promise.resolve([]);
    return new Promise<R[]>((resolve, reject) => {
      const onAbort = (): void => this.#fail(job, cancelled());
      const job: Job = {
        pending: [],
        running: new Set(),
        results: [],
        remaining: tasks.length,
        settled: false,
        served: false,
        onSlice: onSlice as (index: number, result: unknown) => void,
        resolve: (results) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(results as R[]);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      job.pending = tasks.map((task, index) => ({ id: this.#nextId++, index, task, job }));
      signal?.addEventListener('abort', onAbort, { once: true });
      const unserved = this.#queue.findIndex((queued) => queued.served);
      this.#queue.splice(unserved < 0 ? this.#queue.length : unserved, 0, job);
      this.#dispatch();
    });
  }

  /**
   * CPU time (µs) the live workers have used so far (the bench sets it
   * against the main thread's; a worker retired meanwhile is not counted).
   */
  async cpuMicros(): Promise<number> {
    const workers = [...this.#workers];
    // An idle worker is unreferenced: held while it answers, or the process could exit meanwhile.
    for (const worker of workers) worker.thread.ref();
    const usages = await Promise.all(
      workers.map((w) => w.thread.cpuUsage().catch(() => ({ user: 0, system: 0 }))),
    );
    for (const worker of workers) if (worker.slices.length === 0) worker.thread.unref();
    return usages.reduce((sum, usage) => sum + usage.user + usage.system, 0);
  }

  /**
   * Starts every worker the pool may use now, before its first slice (a
   * whole file's pass uses them all): their start, a few hundred ms of
   * loading modules, overlaps the caller's own (reading settings, cutting
   * the file). Meanwhile each loads what its first slices will run:
   * `fileTasks`, a file pass's tasks (a pass's scan and a merge's rows come
   * first), then `engine`, the engine (a pass will run it; a merge never
   * does). Idle until given a slice, they keep the process alive no more than
   * an idle worker does, and retire as one does.
   */
  prestart({
    engine = false,
    fileTasks = false,
  }: { engine?: boolean; fileTasks?: boolean } = {}): void {
    const started: PoolWorker[] = [];
    while (this.#workers.size < this.#size) {
      const worker = this.#spawn();
      if (!worker) break;
      started.push(worker);
      worker.thread.unref();
      worker.idleTimer = setTimeout(() => this.#retireIdle(worker), IDLE_MS).unref();
    }
    if (!engine && !fileTasks) return;
    // Built here once (25-40 ms) while the workers boot, rather than by each of them; a
    // worker started when this thread had it was sent it then (#spawn).
    const o200k =
      engine && o200kTablePartsIfReady() === undefined && sharesTables(this.#size)
        ? o200kTableParts()
        : undefined;
    for (const worker of started) {
      if (o200k) worker.thread.postMessage({ type: 'tables', o200k } satisfies ToWorker);
      worker.thread.postMessage({ type: 'warm', engine, fileTasks } satisfies ToWorker);
    }
  }

  /** Stops every worker (tests, shutdown), those retiring included; running jobs fail. */
  async close(): Promise<void> {
    const threads = [...this.#workers, ...this.#retiring].map((w) => w.thread);
    this.#retiring.clear();
    for (const job of [...this.#queue]) this.#fail(job, new Error('the engine pool was closed'));
    await Promise.all(threads.map((thread) => thread.terminate()));
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const worker = this.#next();
      if (!worker) return;
      const job = this.#queue.shift() as Job;
      const slice = job.pending.shift() as Slice;
      job.served = true;
      if (job.pending.length > 0) this.#queue.push(job);
      job.running.add(slice);
      clearTimeout(worker.idleTimer);
      worker.slices.push(slice);
      worker.thread.ref();
      const message: ToWorker = { type: 'run', id: slice.id, task: slice.task };
      worker.thread.postMessage(message);
    }
  }

  /**
   * The worker to hand the next slice to: an idle one, else a new one while
   * the pool is below its size, else the least loaded with room in its queue.
   * Workers beyond the size (after a resize) get nothing more and retire.
   */
  #next(): PoolWorker | undefined {
    let best: PoolWorker | undefined;
    let eligible = 0;
    for (const worker of this.#workers) {
      if (++eligible > this.#size) break;
      if (worker.slices.length < (best?.slices.length ?? DEPTH)) best = worker;
    }
    if (best?.slices.length === 0) return best;
    return this.#spawn() ?? best;
  }

  #spawn(): PoolWorker | undefined {
    if (this.#workers.size >= this.#size || this.#unavailable) return undefined;
    let thread: Worker;
    try {
      thread = new Worker(this.#script, { name: 'svc-engine' });
    } catch (error) {
      this.#broken(error);
      return undefined;
    }
    const worker: PoolWorker = { thread, ready: false, slices: [], idleTimer: undefined };
    this.#workers.add(worker);
    // The tokenizer's table, if this thread has it (a server builds it before it listens).
    const o200k = o200kTablePartsIfReady();
    if (o200k) thread.postMessage({ type: 'tables', o200k } satisfies ToWorker);
    let error: Error | undefined;
    thread.on('message', (message: FromWorker) => this.#onMessage(worker, message));
    thread.on('error', (e: Error) => {
      error = e;
    });
    thread.on('exit', (code) => this.#onExit(worker, error ?? new Error(`exit code ${code}`)));
    return worker;
  }

  #onMessage(worker: PoolWorker, message: FromWorker): void {
    if (message.type === 'ready') {
      worker.ready = true;
      return;
    }
    // The worker answers its slices in the order it got them, a cancelled one included.
    const at = worker.slices.findIndex((s) => s.id === message.id);
    if (at < 0) return;
    const [slice] = worker.slices.splice(at, 1) as [Slice];
    const { job } = slice;
    job.running.delete(slice);
    const thread = worker.thread.threadId;
    this.#slicesByThread.set(thread, (this.#slicesByThread.get(thread) ?? 0) + 1);
    if (message.type === 'done') this.#land(job, slice.index, message.result);
    else this.#fail(job, new SliceFailed(slice.index, message.error));
    if (worker.slices.length === 0) {
      if (this.#workers.size > this.#size) this.#retire(worker);
      else {
        worker.thread.unref();
        worker.idleTimer = setTimeout(() => this.#retireIdle(worker), IDLE_MS).unref();
      }
    }
    this.#dispatch();
  }

  #onExit(worker: PoolWorker, error: Error): void {
    // A retired worker was idle: its end is no failure (one not yet ready included).
    if (!this.#workers.has(worker)) return;
    this.#workers.delete(worker);
    clearTimeout(worker.idleTimer);
    const failure = worker.ready
      ? new Error('an engine worker stopped', { cause: error })
      : this.#broken(error);
    for (const slice of worker.slices.splice(0)) {
      slice.job.running.delete(slice);
      this.#fail(slice.job, failure);
    }
    this.#dispatch();
  }

  /** A worker that never got ready: its script cannot run here, so none will. */
  #broken(error: unknown): PoolUnavailable {
    const unavailable = (this.#unavailable ??= new PoolUnavailable(error));
    for (const job of [...this.#queue]) this.#fail(job, unavailable);
    return unavailable;
  }

  #retireIdle(worker: PoolWorker): void {
    if (worker.slices.length === 0 && this.#workers.has(worker)) this.#retire(worker);
  }

  /** Retired workers until they have ended (`close` ends them at once). */
  readonly #retiring = new Set<PoolWorker>();

  /** Asked to end rather than ended: it gives its heap back on its own thread first. */
  #retire(worker: PoolWorker): void {
    clearTimeout(worker.idleTimer);
    this.#workers.delete(worker);
    this.#retiring.add(worker);
    worker.thread.once('exit', () => this.#retiring.delete(worker));
    worker.thread.postMessage({ type: 'retire' } satisfies ToWorker);
    endAfterGrace(worker.thread);
  }

  #land(job: Job, index: number, result: unknown): void {
    if (job.settled) return;
    job.results[index] = result;
    job.onSlice(index, result);
    if (--job.remaining === 0) {
      job.settled = true;
      job.resolve(job.results);
    }
  }

  #fail(job: Job, error: Error): void {
    if (job.settled) return;
    job.settled = true;
    job.pending = [];
    const queued = this.#queue.indexOf(job);
    if (queued >= 0) this.#queue.splice(queued, 1);
    for (const slice of job.running) {
      const worker = [...this.#workers].find((w) => w.slices.includes(slice));
      const message: ToWorker = { type: 'cancel', id: slice.id };
      worker?.thread.postMessage(message);
    }
    job.reject(error);
  }
}
