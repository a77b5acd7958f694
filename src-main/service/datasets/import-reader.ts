import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../../src-shared/errors.ts';
import type { FieldMapping, OasstPaths } from '../../../src-shared/schemas/mapping.ts';
import type { ShapeId } from '../../engine/shapes/index.ts';
import { endAfterGrace, workerScript } from '../../engine/worker-script.ts';
import type { FileFormat } from '../../files/index.ts';
import { readSampleBatches } from '../samples/read-samples.ts';
import { decodeError, type WireError } from '../threads/wire-error.ts';
import {
  importBatchOf,
  lastRowOf,
  mappingColumns,
  rowsAfter,
  type ImportBatch,
  type MappingColumns,
} from './import-batch.ts';

/**
 * An import's rows as batches to store (import-batch.ts), read and mapped on
 * a worker thread of their own (import-reader-worker.ts) when the file is
 * large: the server's thread then only writes them. Reading a JSON Lines
 * file (splitting lines, JSON.parse, the shape's mapping) was about a third
 * of that thread's work in an import, and most of its garbage: the old
 * generation it grew was collected in pauses of 15-30 ms, the longest holds
 * of the import. A small file is read here: a worker's start (~0.1-0.2 s of
 * loading the readers and the shapes) would cost more than reading it.
 *
 * The worker keeps at most READ_AHEAD batches unread by the import (each
 * one read of the file, a few hundred rows), so memory stays bounded
 * whatever the file's size and however slowly the rows are written.
 */

export interface ImportReadOptions {
  format: FileFormat;
  shape?: ShapeId | undefined;
  mapping?: FieldMapping | undefined;
  paths?: OasstPaths | undefined;
  /** Told the mapping in force once the first rows are read (before the first batch). */
  onMapping: (columns: MappingColumns) => void;
}

/** Files from this size on are read on a worker. */
export const READ_OFF_THREAD_FROM_BYTES = 4 * 1024 * 1024;

/**
 * Rows read here before the worker's (a batch is one read of the file: a
 * JSON Lines batch of long rows may hold a hundred): the import's first
 * transaction (500 rows, import.ts) is written without waiting for the
 * worker to start.
 */
export const READ_HERE_FIRST = 1000;

/** Batches the worker reads ahead of the import. */
export const READ_AHEAD = 4;

/**
 * What the import's thread sends the reader: first the last row it read
 * itself (the worker sends the rows after it), then one `more` per batch
 * taken (one more may be read ahead).
 */
export type ToReader = { type: 'after'; row: number } | 'more';

export type FromReader =
  { type: 'batch'; batch: ImportBatch } | { type: 'done' } | { type: 'failed'; error: WireError };

/** Which file a path named when the import began (its device, inode, size and time of change). */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

export function fileIdentity(path: string): FileIdentity {
  const { dev, ino, size, mtimeMs } = statSync(path);
  return { dev, ino, size, mtimeMs };
}

/**
 * Throws unless `path` is still the file the import began with: the worker
 * opens it again ~0.15 s after this thread did, and a file replaced,
 * rewritten or deleted meanwhile would otherwise give the import the first
 * rows of one file and the rest of another (or fail on a missing file).
 */
export function checkSameFile(path: string, began: FileIdentity): void {
  let now: FileIdentity | undefined;
  try {
    now = fileIdentity(path);
  } catch {
    // Gone: said below as changed.
  }
  const same =
    now !== undefined &&
    now.dev === began.dev &&
    now.ino === began.ino &&
    now.size === began.size &&
    now.mtimeMs === began.mtimeMs;
  if (!same) {
    throw new AppError(
      'invalid_request',
      `${basename(path)} changed while it was imported (replaced, rewritten or deleted after its first rows were read): import it again`,
    );
  }
}

/** What the worker is given to read. */
export interface ReaderJob {
  path: string;
  /** The file as the import's thread found it (checkSameFile). */
  began: FileIdentity;
  format: FileFormat;
  shape: ShapeId | undefined;
  mapping: FieldMapping | undefined;
  paths: OasstPaths | undefined;
}

/** How a reading is run: tests lower the size and watch the worker's messages waiting. */
export interface ReaderTuning {
  offThreadFromBytes: number;
  /** Told how many of the worker's messages wait unread, each time one arrives. */
  onWaiting?: (waiting: number) => void;
  /** The worker's script (a test names one that cannot start). */
  script?: URL;
}

/** The rows of the file at `path` (of `bytes` bytes) as batches to store. */
export function readImportBatches(
  path: string,
  bytes: number,
  options: ImportReadOptions,
  tuning: ReaderTuning = { offThreadFromBytes: READ_OFF_THREAD_FROM_BYTES },
): AsyncGenerator<ImportBatch> {
  return bytes >= tuning.offThreadFromBytes
    ? readOffThread(path, options, tuning)
    : readHere(path, options);
}

const readerScript = (): URL =>
  workerScript(import.meta.url, 'import-reader-worker.ts', 'import-reader-worker.js');

/** The same batches, read on this thread. */
export async function* readHere(
  path: string,
  options: ImportReadOptions,
): AsyncGenerator<ImportBatch> {
  const batches = readSampleBatches(path, {
    format: options.format,
    shape: options.shape,
    mapping: options.mapping,
    paths: options.paths,
    onMapping: (chosen) => options.onMapping(mappingColumns(chosen)),
  });
  for await (const batch of batches) yield importBatchOf(batch, options.format);
}

/**
 * The batches of a large file. The first READ_HERE_FIRST rows are read
 * here, at once: they are on screen while the worker starts (~0.15 s of
 * loading the readers and the shapes). The worker reads the file from its
 * start and sends the batches after those rows, in order; a file that ends
 * within them is not waited for. A worker that cannot start (no script, no
 * thread) before it sent anything leaves the rest to be read here; one that
 * fails later fails the import (its rows so far are already the import's).
 * The worker is ended if the import stops early.
 */
async function* readOffThread(
  path: string,
  options: ImportReadOptions,
  { onWaiting, script = readerScript() }: ReaderTuning,
): AsyncGenerator<ImportBatch> {
  const job: ReaderJob = {
    path,
    began: fileIdentity(path),
    format: options.format,
    shape: options.shape,
    mapping: options.mapping,
    paths: options.paths,
  };
  // The mapping is told by the first rows, read here: the rest is read as they were mapped.
  const rest: ImportReadOptions = { ...options, onMapping: () => undefined };
  /** The rows after `after` read here, when no worker reads them. */
  async function* restHere(after: number, why: string): AsyncGenerator<ImportBatch> {
    console.error(`the import's reader did not start (${why}): reading here`);
    for await (const batch of readHere(path, rest)) {
      const kept = rowsAfter(batch, after);
      if (kept) yield kept;
    }
  }
  let worker: Worker | undefined;
  let unstarted = '';
  try {
    worker = new Worker(script, { workerData: job, name: 'svc-import-reader' });
  } catch (error) {
    unstarted = (error as Error).message;
  }
  const arrived: (FromReader | { type: 'crashed'; error: Error })[] = [];
  let wake: (() => void) | undefined;
  const push = (item: (typeof arrived)[number]): void => {
    arrived.push(item);
    onWaiting?.(arrived.length);
    wake?.();
  };
  worker?.on('message', (message: FromReader) => push(message));
  worker?.on('error', (error: Error) => push({ type: 'crashed', error }));
  worker?.on('exit', (code) =>
    push({ type: 'crashed', error: new Error(`the import's reader ended (exit code ${code})`) }),
  );
  let heard = false;
  let finished = false;
  try {
    const first = await firstBatches(path, options, READ_HERE_FIRST);
    const last = first.batches.at(-1);
    if (!last) return;
    const after = lastRowOf(last);
    worker?.postMessage({ type: 'after', row: after } satisfies ToReader);
    yield* first.batches;
    // A file of few rows was all read here: the worker is not waited for.
    if (first.ended) return;
    if (!worker) {
      yield* restHere(after, unstarted);
      return;
    }
    for (;;) {
      while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const next = arrived.shift() as (typeof arrived)[number];
      if (next.type === 'crashed') {
        if (heard) throw next.error;
        yield* restHere(after, next.error.message);
        return;
      }
      heard = true;
      if (next.type === 'failed') throw decodeError(next.error, 0, 0);
      else if (next.type === 'done') {
        finished = true;
        return;
      } else {
        worker.postMessage('more' satisfies ToReader);
        yield next.batch;
      }
    }
  } finally {
    if (worker) {
      worker.removeAllListeners('message');
      // Done, it ends by itself (giving its heap back), or after a grace; stopped early, now.
      if (finished) endAfterGrace(worker);
      else await worker.terminate();
    }
  }
}

/**
 * The first batches of the file read here, at least `rows` rows unless it
 * has fewer, and whether they are all of it (the file is closed after).
 */
async function firstBatches(
  path: string,
  options: ImportReadOptions,
  rows: number,
): Promise<{ batches: ImportBatch[]; ended: boolean }> {
  const reading = readHere(path, options);
  const batches: ImportBatch[] = [];
  let read = 0;
  try {
    while (read < rows) {
      const next = await reading.next();
      if (next.done === true) return { batches, ended: true };
      batches.push(next.value);
      read += next.value.sourceRows.length + next.value.errors.length;
    }
    return { batches, ended: false };
  } finally {
    await reading.return(undefined);
  }
}
