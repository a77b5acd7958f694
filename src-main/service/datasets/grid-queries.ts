import { Worker } from 'node:worker_threads';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { RowsPage, RowsQuery } from '../../../src-shared/owner/datasets.ts';
import { workerScript } from '../../engine/worker-script.ts';
import type { Db } from '../../store/db.ts';
import { promised } from '../owner/promised.ts';
import type { GridReply, GridRequest } from './grid-worker.ts';
import { datasetRows } from './rows.ts';

/**
 * Where the grid's pages are read: off the main thread, on a worker thread
 * with its own read-only connection, so no request (an `/v1` call, a
 * decision) waits behind a long grid query. From source the worker is the
 * .ts beside this file; in the desktop app's bundle `grid-worker.js`, an
 * entry of its own. An in-memory database (tests) has no file to share, and a
 * worker that cannot start or dies leaves the queries to the main thread:
 * answered all the same, only not off it.
 */
export class GridQueries {
  readonly #db: Db;
  #worker: Worker | undefined;
  #broken = false;
  #next = 0;
  readonly #pending = new Map<
    number,
    {
      query: z.output<typeof RowsQuery>;
      resolve: (page: RowsPage | Promise<RowsPage>) => void;
      reject: (error: Error) => void;
    }
  >();

  constructor(db: Db) {
    this.#db = db;
  }

  /** A page of the grid (see rows.ts datasetRows). */
  rows(query: z.output<typeof RowsQuery>): Promise<RowsPage> {
    const worker = this.#start();
    if (!worker) return promised(() => datasetRows(this.#db, query));
    const id = this.#next++;
    return new Promise<RowsPage>((resolve, reject) => {
      this.#pending.set(id, { query, resolve, reject });
      this.#hold();
      worker.postMessage({ type: 'rows', id, query } satisfies GridRequest);
    });
  }

  readonly #indexed = new Set<string>();
  readonly #onIndexed = new Map<string, (() => void)[]>();

  /** A dataset was imported or deleted: the worker builds or drops its search index. */
  reindex(): void {
    this.#start()?.postMessage({ type: 'index' } satisfies GridRequest);
  }

  /** Resolves once the dataset's search index is complete (never without a worker). */
  whenIndexed(datasetId: string): Promise<void> {
    if (this.#indexed.has(datasetId)) return Promise.resolve();
    this.reindex();
    return new Promise((resolve) => {
      this.#onIndexed.set(datasetId, [...(this.#onIndexed.get(datasetId) ?? []), resolve]);
      this.#hold();
    });
  }

  /** The worker keeps the process alive only while someone waits for it. */
  #hold(): void {
    if (this.#pending.size > 0 || this.#onIndexed.size > 0) this.#worker?.ref();
    else this.#worker?.unref();
  }

  /** Whether the queries run on the worker thread (false before the first). */
  get threaded(): boolean {
    return this.#worker !== undefined;
  }

  /** Stops the worker (the database is closing). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#broken = true;
    await worker?.terminate();
  }

  #start(): Worker | undefined {
    if (this.#worker || this.#broken) return this.#worker;
    if (this.#db.memory || !this.#db.open) return undefined;
    const url = workerScript(import.meta.url, 'grid-worker.ts', 'grid-worker.js');
    try {
      const worker = new Worker(url, { name: 'svc-grid', workerData: { file: this.#db.name } });
      worker.on('message', (reply: GridReply) => {
        if (reply.type === 'indexed') {
          this.#indexed.add(reply.dataset_id);
          this.#onIndexed.get(reply.dataset_id)?.forEach((resolve) => resolve());
          this.#onIndexed.delete(reply.dataset_id);
          this.#hold();
          return;
        }
        const waiting = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        this.#hold();
        if (!waiting) return;
        if ('page' in reply) waiting.resolve(reply.page);
        else waiting.reject(new AppError(reply.error.code, reply.error.message));
      });
      const fail = (error: Error): void => {
        console.error('grid queries: the worker stopped, reading on the main thread:', error);
        this.#broken = true;
        this.#worker = undefined;
        // What it was asked and did not answer is answered here.
        for (const waiting of this.#pending.values()) {
          waiting.resolve(promised(() => datasetRows(this.#db, waiting.query)));
        }
        this.#pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (this.#worker === worker) fail(new Error(`the grid worker exited with ${code}`));
      });
      // After the listeners: adding a 'message' listener refs the worker's port again.
      worker.unref();
      this.#worker = worker;
      return worker;
    } catch (error) {
      console.error('grid queries: no worker, reading on the main thread:', error);
      this.#broken = true;
      return undefined;
    }
  }
}

const queries = new WeakMap<Db, GridQueries>();

/** The grid queries of a database (one worker per database). */
export function gridQueries(db: Db): GridQueries {
  let found = queries.get(db);
  if (!found) {
    found = new GridQueries(db);
    queries.set(db, found);
  }
  return found;
}
