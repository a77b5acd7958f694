import { randomUUID } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { AppError } from '../../src-shared/errors.ts';
import { fileName } from './errors.ts';
import { FILE_FORMATS, type FileFormat } from './format.ts';
import { fsProblem } from './source.ts';
import { spool } from './spool.ts';
import { JSON_ARRAY_FRAME, JSONL_FRAME, writeCsv, writeJsonRows, writeParquet } from './writers.ts';

type Row = Record<string, unknown>;

async function* asAsync(rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<Row> {
  await Promise.resolve();
  yield* rows;
}

/**
 * Writes rows to `path` in `format`. The file appears whole or not at all: it
 * is written beside the target under a temporary name and renamed over it at
 * the end. Returns the rows written and the file's size in bytes.
 */
export async function writeRows(
  path: string,
  format: FileFormat,
  rows: AsyncIterable<Row> | Iterable<Row>,
): Promise<{ rows: number; bytes: number }> {
  if (!FILE_FORMATS.includes(format)) {
    throw new AppError('invalid_request', `unknown file format ${JSON.stringify(format)}`);
  }
  const partial = `${path}.${randomUUID().slice(0, 8)}.partial`;
  const counter = { rows: 0 };
  try {
    if (format === 'jsonl') await writeJsonRows(partial, asAsync(rows), JSONL_FRAME, counter);
    else if (format === 'json') {
      await writeJsonRows(partial, asAsync(rows), JSON_ARRAY_FRAME, counter);
    } else {
      const spooled = await spool(rows);
      try {
        if (format === 'csv') await writeCsv(partial, spooled, counter);
        else await writeParquet(partial, spooled, counter);
      } finally {
        await spooled.dispose();
      }
    }
    await rename(partial, path);
    return { rows: counter.rows, bytes: (await stat(path)).size };
  } catch (error) {
    await rm(partial, { force: true });
    if (error instanceof AppError) throw error;
    throw new AppError('invalid_request', `cannot write ${fileName(path)}: ${fsProblem(error)}`, {
      cause: error,
    });
  }
}
