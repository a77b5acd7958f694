import { Worker } from 'node:worker_threads';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { workerScript } from '../../engine/worker-script.ts';
import type { Db } from '../../store/db.ts';
import { scanRows, scanWords, type ScanTask } from './scan-rows.ts';
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
    run: <R>(task: ScanTask) =>
      Promise.resolve(
        (task.kind === 'rows' ? scanRows(db, task, matcher) : scanWords(db, task)) as R,
      ),
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
  readonly #workers: { worker: Worker; pending: Map<number, Pending> }[] = [];
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
      worker.on('exit', (code) => fail(new Error(`a scan's slice worker exited with ${code}`)));
      this.#workers.push({ worker, pending });
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

  close(): void {
    for (const { worker } of this.#workers) void worker.terminate();
  }
}
