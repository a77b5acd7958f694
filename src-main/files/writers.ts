import Papa from 'papaparse';
import { fileWriter, parquetWriteRows, type BasicType } from 'hyparquet-writer';
import { AppError } from '../../src-shared/errors.ts';
import { encodeCell } from './cells.ts';
import type { Spooled, ValueKind } from './spool.ts';
import { writeText } from './text-writer.ts';

type Row = Record<string, unknown>;

const CSV_BATCH = 1000;

/** How rows are framed as JSON text: before the first, between two, after the last; with none. */
interface JsonFrame {
  first: string;
  between: string;
  last: string;
  empty: string;
}

/** JSON Lines: one `JSON.stringify`d row per line. */
export const JSONL_FRAME: JsonFrame = { first: '', between: '\n', last: '\n', empty: '' };
/** A JSON array, one row per line. */
export const JSON_ARRAY_FRAME: JsonFrame = {
  first: '[\n',
  between: ',\n',
  last: '\n]\n',
  empty: '[]\n',
};

/** Rows as JSON text in a frame, streamed. */
export async function writeJsonRows(
  path: string,
  rows: AsyncIterable<Row>,
  frame: JsonFrame,
  counter: { rows: number },
): Promise<void> {
  await writeText(
    path,
    (async function* () {
      for await (const row of rows) {
        yield (counter.rows === 0 ? frame.first : frame.between) + JSON.stringify(row);
        counter.rows++;
      }
      yield counter.rows === 0 ? frame.empty : frame.last;
    })(),
  );
}

/**
 * CSV: a header of every key in first-seen order, then one line per row
 * (cells as in `cells.ts`; a key a row lacks is an empty cell). A one-column
 * file quotes every cell, so an empty value is not read back as a blank line.
 */
export async function writeCsv(
  path: string,
  spooled: Spooled,
  counter: { rows: number },
): Promise<void> {
  const { keys } = spooled;
  const config = { newline: '\n', quotes: keys.length === 1 };
  await writeText(
    path,
    (async function* () {
      yield Papa.unparse([keys], config) + '\n';
      let batch: string[][] = [];
      for await (const row of spooled.rows()) {
        batch.push(keys.map((key) => encodeCell(row[key])));
        counter.rows++;
        if (batch.length >= CSV_BATCH) {
          yield Papa.unparse(batch, config) + '\n';
          batch = [];
        }
      }
      if (batch.length > 0) yield Papa.unparse(batch, config) + '\n';
    })(),
  );
}

/**
 * The Parquet type for what a column holds: booleans, 32-bit integers,
 * doubles (any other number), strings; anything else (objects, arrays, or a
 * mix of kinds) is a JSON column, which hyparquet reads back as the values.
 */
export function parquetType(kinds: ReadonlySet<ValueKind> | undefined): BasicType {
  const set = kinds ?? new Set<ValueKind>();
  if (set.size === 0) return 'STRING';
  const only = (...allowed: ValueKind[]): boolean =>
    [...set].every((kind) => allowed.includes(kind));
  if (only('boolean')) return 'BOOLEAN';
  if (only('int32')) return 'INT32';
  if (only('int32', 'double')) return 'DOUBLE';
  if (only('string')) return 'STRING';
  return 'JSON';
}

/**
 * Parquet through hyparquet-writer's row writer: the rows are pulled from the
 * spool one row group at a time (up to 100,000 rows, the writer's default
 * after a first group of 1,000), so one row group is held in memory at once,
 * not the whole dataset. Every column is nullable; a missing key is null.
 */
export async function writeParquet(
  path: string,
  spooled: Spooled,
  counter: { rows: number },
): Promise<void> {
  const columns = spooled.keys.map((name) => ({
    name,
    type: parquetType(spooled.kinds.get(name)),
  }));
  if (columns.length === 0) {
    throw new AppError(
      'invalid_request',
      'nothing to write: a Parquet file needs at least one column',
    );
  }
  await parquetWriteRows({
    writer: fileWriter(path),
    columns,
    rows: (async function* () {
      for await (const row of spooled.rows()) {
        counter.rows++;
        yield Object.fromEntries(columns.map(({ name }) => [name, row[name] ?? null]));
      }
    })(),
  });
}
