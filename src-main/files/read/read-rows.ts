import { stat } from 'node:fs/promises';
import { fsProblem, unreadable } from '../errors.ts';
import { formatFromPath, type FileFormat } from '../format.ts';
import { readJsonl } from './jsonl.ts';
import type { RowResult } from './row-result.ts';
import { KNOWN_EXTENSIONS } from '../../../src-shared/file-formats.ts';

export interface ReadOptions {
  /** The file's format; by default the one its extension says. */
  format?: FileFormat;
  /** Stops reading: the generator then throws AppError('cancelled'). */
  signal?: AbortSignal;
}

/**
 * The rows of a dataset file, streamed. Bad rows come as `{row, error}` and
 * reading goes on; a file that cannot be read at all (missing, not the
 * format) throws AppError('invalid_request') naming it.
 */
export function readRows(path: string, options: ReadOptions = {}): AsyncGenerator<RowResult> {
  const format = options.format ?? formatFromPath(path);
  const { signal } = options;
  switch (format) {
    case 'jsonl':
      return readJsonl(path, signal);
    case 'json':
      return later(() => import('./json.ts').then((m) => m.readJson(path, signal)));
    case 'csv':
      return later(() => import('./csv.ts').then((m) => m.readCsv(path, signal)));
    case 'parquet':
      return later(() => import('./parquet.ts').then((m) => m.readParquet(path, signal)));
    case undefined:
      return unknownFormat(path);
  }
}

/**
 * A reader whose module is loaded at its first read. The CSV, JSON and
 * Parquet readers bring their parsers (csv-parse, @streamparser/json,
 * hyparquet): ~0.15 s of a thread's start, which every engine worker and
 * command paid to read JSON Lines, the only format the file passes slice.
 */
async function* later(reader: () => Promise<AsyncGenerator<RowResult>>): AsyncGenerator<RowResult> {
  yield* await reader();
}

/**
 * A path whose name gives no format: what is wrong with it first (missing,
 * a folder), since a folder's name has no extension either.
 */
// eslint-disable-next-line require-yield -- a generator, so the error comes on the first read like the others
async function* unknownFormat(path: string): AsyncGenerator<RowResult> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    throw unreadable(path, fsProblem(error), error);
  }
  if (!info.isFile()) throw unreadable(path, 'not a file');
  throw unreadable(path, `unknown format; use ${KNOWN_EXTENSIONS}`);
}
