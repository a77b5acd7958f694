import { randomUUID } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { AppError } from '../../src-shared/errors.ts';
import { encodeCsvRecordLike } from './csv-like.ts';
import { fileName } from './errors.ts';
import type { FileFormat } from './format.ts';
import { spliceJsonLine } from './json-splice.ts';
import type { SourceLayout } from './layout.ts';
import { writeParquetLike } from './parquet-like.ts';
import { fsProblem } from './source.ts';
import { writeText } from './text-writer.ts';
import { writeRows } from './write.ts';

type Row = Record<string, unknown>;

/**
 * A row on its way back to the user's file: its value, its source text where
 * the format has one, and whether a repair changed it.
 */
export interface SourcedRow {
  value: Row;
  raw?: string | null | undefined;
  changed: boolean;
}

/**
 * Writes rows back in the source's own form when the output format is the
 * source's: an unchanged JSON Lines line or CSV record is its source text,
 * byte for byte; a changed line keeps its key order, spacing and escapes
 * around the values that changed (`spliceJsonLine`); a changed CSV record
 * keeps its other cells and their quoting (`encodeCsvRecordLike`); Parquet is
 * written with the source's schema. In another format (or a JSON array) the
 * rows are written as `writeRows` writes any rows. Columns a row has beyond
 * the source's (the verdict columns) are appended. The file appears whole
 * or not at all.
 */
export async function writeRowsLike(
  path: string,
  format: FileFormat,
  rows: AsyncIterable<SourcedRow>,
  layout: SourceLayout | null,
): Promise<{ rows: number; bytes: number }> {
  const same = layout?.format === format;
  if (!same || format === 'json') {
    return writeRows(path, format, values(rows));
  }
  const partial = `${path}.${randomUUID().slice(0, 8)}.partial`;
  const counter = { rows: 0 };
  try {
    if (format === 'jsonl') await writeText(partial, jsonlLines(rows, layout, counter));
    else if (format === 'csv') await writeText(partial, csvLines(rows, layout, counter));
    else if (layout.parquet) await writeParquetLike(partial, layout.parquet, values(rows), counter);
    else return await writeRows(path, format, values(rows));
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

async function* values(rows: AsyncIterable<SourcedRow>): AsyncGenerator<Row> {
  for await (const row of rows) yield row.value;
}

async function* jsonlLines(
  rows: AsyncIterable<SourcedRow>,
  layout: SourceLayout,
  counter: { rows: number },
): AsyncGenerator<string> {
  const newline = layout.newline ?? '\n';
  for await (const { value, raw, changed } of rows) {
    counter.rows++;
    if (raw === undefined || raw === null) yield JSON.stringify(value) + newline;
    else yield (changed ? spliceJsonLine(raw, value) : raw) + newline;
  }
}

async function* csvLines(
  rows: AsyncIterable<SourcedRow>,
  layout: SourceLayout,
  counter: { rows: number },
): AsyncGenerator<string> {
  const csv = layout.csv;
  if (!csv) throw new AppError('internal_error', 'a CSV layout without its header');
  const newline = layout.newline ?? csv.newline;
  const header = csv.header;
  const known = new Set(header);
  // Extra columns (verdicts) are found on the first row: every exported row has the same ones.
  let extras: string[] | undefined;
  let batch = '';
  for await (const { value, raw, changed } of rows) {
    if (extras === undefined) {
      extras = Object.keys(value).filter((key) => !known.has(key));
      batch +=
        csv.header_raw +
        (extras.length ? ',' + encodeCsvRecordLike(extras, undefined) : '') +
        newline;
    }
    const own = header.map((key) => (Object.hasOwn(value, key) ? value[key] : null));
    const record =
      !changed && raw !== undefined && raw !== null
        ? raw
        : encodeCsvRecordLike(own, raw ?? undefined);
    const tail = extras.length
      ? ',' +
        encodeCsvRecordLike(
          extras.map((key) => value[key] ?? null),
          undefined,
        )
      : '';
    batch += record + tail + newline;
    counter.rows++;
    if (batch.length > 1 << 16) {
      yield batch;
      batch = '';
    }
  }
  if (extras === undefined) batch += csv.header_raw + newline;
  if (batch) yield batch;
}
