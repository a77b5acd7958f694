import { Worker } from 'node:worker_threads';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { workerScript } from '../../engine/worker-script.ts';
import type { Db } from '../../store/db.ts';
import { runScanTask, type ScanTask } from './scan-rows.ts';
import type { SliceReply, SliceRequest } from './scan-slice-worker.ts';

/**
 * Where a dataset scan's slices run (scan-rows.ts): on slice workers of its
 * own, each with a read-only connection, or on the scan's thread (an
 * in-memory database, one worker asked for, or none could start).
 */
export interface SliceRunner {
  /** Slices in flight at once. */
  readonly window: number;
  run<R>(task: ScanTask): Promise<R>;
  close(): void;
}

/** The slices on the calling thread, one at a time; `matcher` is the scan's own. */
export function inThread(db: Db, matcher: ContaminationMatcher | null): SliceRunner {
  return {
    window: 1,
    run: <R>(task: ScanTask) => Promise.resolve(runScanTask(db, task, () => matcher) as R),
    close: () => undefined,
  };
}

/**
 * `count` threads' worth of slices: `count - 1` slice workers and the
 * calling thread itself, which takes every `count`th slice (its own work,
 * adding the slices in order and finishing the groups, is light). A thread
 * fewer to start: each loads the code and the benchmarks' fingerprints
 * again (~0.7 s of CPU from source, and its own heap).
 */
export function sharedWith(
  db: Db,
  matcher: ContaminationMatcher | null,
  count: number,
): SliceRunner {
  const here = inThread(db, matcher);
  if (count <= 1) return here;
  let workers: SliceWorkers;
  try {
    workers = new SliceWorkers(db.name, count - 1);
  } catch (error) {
    console.error('dataset scan: no slice workers, scanning on its own thread:', error);
    return here;
  }
  let turn = 0;
  return {
    window: workers.window + 1,
    run: <R>(task: ScanTask) => (turn++ % count === 0 ? here : workers).run<R>(task),
    close: () => workers.close(),
  };
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/** `count` slice workers reading the database file `file`; each slice goes to the least busy. */
export class SliceWorkers implements SliceRunner {
  readonly #workers: { worker: Worker; pending: Map<number, Pending>; exit: Promise<number> }[] =
    [];
  #next = 0;
  #failure: Error | undefined;

  constructor(file: string, count: number) {
    const url = workerScript(import.meta.url, 'scan-slice-worker.ts', 'scan-slice-worker.js');
    for (let i = 0; i < count; i++) {
      const worker = new Worker(url, { name: 'svc-scan-slice', workerData: { file } });
      const pending = new Map<number, Pending>();
      const fail = (error: Error): void => {
        this.#failure ??= error;
        for (const waiting of pending.values()) waiting.reject(error);
        pending.clear();
      };
      worker.on('message', (reply: SliceReply) => {
        const waiting = pending.get(reply.id);
        pending.delete(reply.id);
        if ('failed' in reply) waiting?.reject(new Error(reply.failed));
        else waiting?.resolve(reply.result);
      });
      worker.on('error', fail);
      const exit = new Promise<number>((resolve) => {
        worker.on('exit', (code) => {
          fail(new Error(`a scan's slice worker exited with ${code}`));
          resolve(code);
        });
      });
      this.#workers.push({ worker, pending, exit });
    }
  }

  /** Two slices per worker: each has the next while its result crosses to the scan's thread. */
  get window(): number {
    return 2 * this.#workers.length;
  }

  run<R>(task: ScanTask): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.#failure) {
        reject(this.#failure);
        return;
      }
      const least = this.#workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const id = this.#next++;
      least.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      least.worker.postMessage({ id, task } satisfies SliceRequest);
    });
  }

  /**
   * Asks each worker to end rather than terminating it: a thread stopped
   * while it loads SQLite's native module, or inside a call to it, aborts
   * the whole process (better-sqlite3 13 on Node 24: "FATAL ERROR:
   * Error::New napi_get_last_error_info"), and a small dataset's scan ends
   * before its slice workers have started. A worker still starting reads
   * the request once it has; one busy with a slice, after it. They stay
   * referenced: the scan's thread lives until they are gone, for a thread
   * that ends takes its workers down with it as `terminate` would.
   */
  /** Each worker's exit code, once every one has ended (0: it ended as asked). */
  exited(): Promise<number[]> {
    return Promise.all(this.#workers.map(({ exit }) => exit));
  }

  close(): void {
    this.#failure ??= new Error("the scan's slice workers were closed");
    for (const { worker } of this.#workers) {
      worker.postMessage({ close: true } satisfies SliceRequest);
    }
  }
}
