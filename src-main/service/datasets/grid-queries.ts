import { Worker } from 'node:worker_threads';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { OwnerEvent } from '../../../src-shared/owner-api.ts';
import type {
  ExportColumns,
  RowDetail,
  RowsPage,
  RowsQuery,
} from '../../../src-shared/owner/datasets.ts';
import { workerScript } from '../../engine/worker-script.ts';
import type { Db } from '../../store/db.ts';
import { promised } from '../owner/promised.ts';
import { decodeError } from '../threads/wire-error.ts';
import type { IndexProgress } from '../../store/search-index.ts';
import type { GridReply, GridRequest } from './grid-worker.ts';
import type { IndexReply, IndexRequest } from './search-index-worker.ts';
import { answerScope, type ScopeAnswer, type ScopeQuestion } from './scope.ts';
import { datasetRow, datasetRows } from './rows.ts';
import { exportColumns } from './export-columns.ts';
import { EncodedJson, type Answer } from '../owner/encoded-json.ts';

/**
 * Where the grid's pages are read: off the main thread, on a worker thread
 * with its own read-only connection, so no request (an `/v1` call, a
 * decision) waits behind a long grid query. From source the worker is the
 * .ts beside this file; in the desktop app's bundle `grid-worker.js`, an
 * entry of its own. An in-memory database (tests) has no file to share, and a
 * worker that cannot start or dies leaves the queries to the main thread:
 * answered all the same, only not off it. The search index is built by a
 * worker of its own (search-index-worker.ts), whose progress is told to
 * whoever listens (the app's events) and read by the grid's worker.
 */
export class GridQueries {
  readonly #db: Db;
  #worker: Worker | undefined;
  #broken = false;
  #next = 0;
  /**
   * What the worker was asked and has not answered: `answer` takes its reply;
   * `here` answers it on this thread when the worker stops; `fail` rejects
   * it when the database closes.
   */
  readonly #pending = new Map<
    number,
    { answer: (reply: GridReply) => void; here: () => void; fail: () => void }
  >();

  constructor(db: Db) {
    this.#db = db;
  }

  /** A page of the grid (see rows.ts datasetRows). */
  rows(query: z.output<typeof RowsQuery>): Promise<RowsPage> {
    return this.#ask(
      (id) => ({ type: 'rows', id, query }),
      (reply) => (reply.type === 'rows' ? reply.page : undefined),
      () => datasetRows(this.#db, query),
    );
  }

  /**
   * A row's detail (rows.ts datasetRow) read, built and encoded as JSON on
   * the worker: for large rows (row-detail.ts), whose parse and serialization
   * would hold this thread. Without a worker it is built here.
   */
  row(input: { dataset_id: string; index: number }): Promise<Answer<RowDetail>> {
    return this.#ask<Answer<RowDetail>>(
      (id) => ({ type: 'row', id, dataset_id: input.dataset_id, index: input.index }),
      (reply) => (reply.type === 'row' ? new EncodedJson<RowDetail>(reply.json) : undefined),
      () => datasetRow(this.#db, input),
    );
  }

  /** The columns a CSV or Parquet export adds (export-columns.ts): a pass over every row. */
  columns(datasetId: string): Promise<ExportColumns> {
    return this.#ask(
      (id) => ({ type: 'columns', id, dataset_id: datasetId }),
      (reply) => (reply.type === 'columns' ? reply.columns : undefined),
      () => exportColumns(this.#db, datasetId),
    );
  }

  /**
   * A run's scope (see scope.ts answerScope): a filter's rows, a selection
   * sorted, their size. Over a million rows each takes from tens of
   * milliseconds (a sort) to seconds (a search before its index is built).
   */
  scope(question: ScopeQuestion): Promise<ScopeAnswer> {
    return this.#ask(
      (id) => ({ type: 'scope', id, ...question }),
      (reply) => (reply.type === 'scope' ? { rows: reply.rows, size: reply.size } : undefined),
      // The selection is copied to the worker (4 bytes a row, a memcpy), not moved: were the
      // worker to stop, this thread answers from it.
      () => answerScope(this.#db, question),
    );
  }

  #ask<T>(
    request: (id: number) => GridRequest,
    read: (reply: GridReply) => T | undefined,
    here: () => T,
  ): Promise<T> {
    const worker = this.#start();
    if (!worker) return promised(here);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, {
        answer: (reply) => {
          if (reply.type === 'error') {
            reject(decodeError(reply.error, 0, 0));
            return;
          }
          const value = read(reply);
          if (value === undefined) reject(new Error(`grid worker: a ${reply.type} reply to ${id}`));
          else resolve(value);
        },
        here: () => resolve(promised(here)),
        fail: () =>
          reject(new AppError('service_unavailable', 'the database closed before it answered')),
      });
      this.#hold();
      worker.postMessage(request(id));
    });
  }

  readonly #indexed = new Set<string>();
  readonly #onIndexed = new Map<string, (() => void)[]>();
  readonly #progressListeners = new Set<(progress: IndexProgress) => void>();
  #indexer: Worker | undefined;
  #indexerBroken = false;

  /** A dataset is importing, was imported or deleted: its search index is built or dropped. */
  reindex(): void {
    this.#startIndexer()?.postMessage({ type: 'index' } satisfies IndexRequest);
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

  /** Tells `listener` how far each dataset's search index is, as it is built; returns the unsubscribe. */
  onIndexProgress(listener: (progress: IndexProgress) => void): () => void {
    this.#progressListeners.add(listener);
    return () => this.#progressListeners.delete(listener);
  }

  #progress(progress: IndexProgress): void {
    if (progress.complete) {
      this.#indexed.add(progress.dataset_id);
      this.#onIndexed.get(progress.dataset_id)?.forEach((resolve) => resolve());
      this.#onIndexed.delete(progress.dataset_id);
      this.#hold();
    } else {
      // Built again (a dataset of the same id cannot come back, but an index file can be lost).
      this.#indexed.delete(progress.dataset_id);
    }
    for (const listener of this.#progressListeners) listener(progress);
  }

  #startIndexer(): Worker | undefined {
    if (this.#indexer || this.#indexerBroken) return this.#indexer;
    if (this.#db.memory || !this.#db.open) return undefined;
    const url = workerScript(import.meta.url, 'search-index-worker.ts', 'search-index-worker.js');
    try {
      const worker = new Worker(url, {
        name: 'svc-search-index',
        workerData: { file: this.#db.name },
      });
      worker.on('message', (reply: IndexReply) => this.#progress(reply.progress));
      const fail = (error: Error): void => {
        console.error('search index: the builder stopped, searches scan the rows:', error);
        this.#indexerBroken = true;
        this.#indexer = undefined;
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (this.#indexer === worker)
          fail(new Error(`the search index's builder exited with ${code}`));
      });
      // It runs in the background: it never keeps the process alive on its own.
      worker.unref();
      this.#indexer = worker;
      return worker;
    } catch (error) {
      console.error('search index: no builder, searches scan the rows:', error);
      this.#indexerBroken = true;
      return undefined;
    }
  }

  /** The worker keeps the process alive only while someone waits for it. */
  #hold(): void {
    if (this.#pending.size > 0) this.#worker?.ref();
    else this.#worker?.unref();
    if (this.#onIndexed.size > 0) this.#indexer?.ref();
    else this.#indexer?.unref();
  }

  /** Whether the queries run on the worker thread (false before the first). */
  get threaded(): boolean {
    return this.#worker !== undefined;
  }

  /** Stops the worker (the database is closing); what it was asked fails. */
  async close(): Promise<void> {
    const [worker, indexer] = [this.#worker, this.#indexer];
    this.#worker = undefined;
    this.#indexer = undefined;
    this.#broken = true;
    this.#indexerBroken = true;
    for (const waiting of this.#pending.values()) waiting.fail();
    this.#pending.clear();
    await Promise.all([worker?.terminate(), indexer?.terminate()]);
  }

  #start(): Worker | undefined {
    if (this.#worker || this.#broken) return this.#worker;
    if (this.#db.memory || !this.#db.open) return undefined;
    const url = workerScript(import.meta.url, 'grid-worker.ts', 'grid-worker.js');
    try {
      const worker = new Worker(url, { name: 'svc-grid', workerData: { file: this.#db.name } });
      worker.on('message', (reply: GridReply) => {
        const waiting = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        this.#hold();
        waiting?.answer(reply);
      });
      const fail = (error: Error): void => {
        console.error('grid queries: the worker stopped, reading on the main thread:', error);
        this.#broken = true;
        this.#worker = undefined;
        // What it was asked and did not answer is answered here.
        for (const waiting of this.#pending.values()) waiting.here();
        this.#pending.clear();
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (this.#worker === worker) fail(new Error(`the grid worker exited with ${code}`));
      });
      // After the listeners: adding a 'message' listener refs the worker's port again.
      worker.unref();
      this.#worker = worker;
      // The indexes left unfinished by an earlier run go on being built.
      this.reindex();
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

const told = new WeakSet<Db>();

/**
 * Tells the search index's progress as `index` events (once per database,
 * as the scanner tells its scans): the grid says "indexing… N%" meanwhile.
 */
export function tellIndexProgress(db: Db, emit: (event: OwnerEvent) => void): void {
  if (told.has(db)) return;
  told.add(db);
  gridQueries(db).onIndexProgress((progress) =>
    emit({
      type: 'index',
      dataset_id: progress.dataset_id,
      indexed: progress.indexed,
      total: progress.total,
      done: progress.complete,
    }),
  );
}
