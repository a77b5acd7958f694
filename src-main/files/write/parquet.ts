import { fileWriter, parquetWriteRows, type BasicType } from 'hyparquet-writer';
import { AppError } from '../../../src-shared/errors.ts';
import type { Spooled, ValueKind } from './spool.ts';
import { bigintsAsRawJson } from '../../../src-shared/exact-json.ts';

/**
 * The Parquet type for what a column holds: booleans, 32-bit integers, 64-bit
 * integers (where one is past 2^53), doubles (any other number), strings;
 * anything else (objects, arrays, or a mix of kinds, 64-bit integers with
 * fractions among them, which a double would round) is a JSON column, which
 * hyparquet reads back as the values.
 */
export function parquetType(kinds: ReadonlySet<ValueKind> | undefined): BasicType {
  const set = kinds ?? new Set<ValueKind>();
  if (set.size === 0) return 'STRING';
  const only = (...allowed: ValueKind[]): boolean =>
    [...set].every((kind) => allowed.includes(kind));
  if (only('boolean')) return 'BOOLEAN';
  if (only('int32')) return 'INT32';
  if (only('int32', 'int64')) return 'INT64';
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
  await writeParquetFile(path, {
    columns,
    rows: (async function* () {
      for await (const row of spooled.rows()) {
        counter.rows++;
        yield Object.fromEntries(
          columns.map(({ name, type }) => [name, cellValue(row[name], type)]),
        );
      }
    })(),
  });
}

/** A row's value as the column of `type` takes it (see bigintsAsRawJson for a JSON column). */
function cellValue(value: unknown, type: BasicType): unknown {
  if (value === null || value === undefined) return null;
  return type === 'JSON' ? bigintsAsRawJson(value) : value;
}

/** What hyparquet-writer's row writer takes besides where to write. */
type ParquetRows = Omit<Parameters<typeof parquetWriteRows>[0], 'writer'>;

/**
 * Streams rows into a new Parquet file at `path` (plain and "like the source"
 * writing both end here). A file with no columns is refused before anything is
 * written: Parquet cannot hold one.
 */
export async function writeParquetFile(path: string, options: ParquetRows): Promise<void> {
  if (options.columns.length === 0) {
    throw new AppError(
      'invalid_request',
      'nothing to write: a Parquet file needs at least one column',
    );
  }
  await parquetWriteRows({ writer: fileWriter(path), ...options });
}
