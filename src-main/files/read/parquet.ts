import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  type AsyncBuffer,
  type FileMetaData,
} from 'hyparquet';
import { parseJsonExactBytes } from '../../../src-shared/exact-json.ts';
import { checkSignal, readFailure, unreadable } from '../errors.ts';
import { toRow, type RowResult } from './row-result.ts';
import { sniff } from './sniff.ts';

const MAGIC = Buffer.from('PAR1');

/**
 * Parquet values as JSON values: INT64 (bigint) as a number when it is a safe
 * integer, else as the BigInt itself, written as its digits (see
 * src-shared/exact-json.ts); dates and timestamps as ISO text; raw bytes as
 * base64. Nested lists and structs are walked.
 */
export function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]));
  }
  return value;
}

/**
 * A Parquet file's footer, after checking the file is Parquet at all. `file`
 * reads byte ranges on demand, so nothing else is loaded yet.
 */
export async function openParquet(
  path: string,
): Promise<{ file: AsyncBuffer; metadata: FileMetaData }> {
  const { head, size } = await sniff(path, 4);
  if (size < 12 || !head.equals(MAGIC)) throw unreadable(path, 'not a Parquet file');
  const file = await asyncBufferFromFile(path);
  try {
    return { file, metadata: await parquetMetadataAsync(file) };
  } catch (error) {
    throw unreadable(path, `not a Parquet file (${(error as Error).message})`, error);
  }
}

/** A JSON column's integers past 2^53 read exactly, as a JSON file's are. */
const parsers = {
  jsonFromBytes: (bytes: Uint8Array | undefined): unknown => bytes && parseJsonExactBytes(bytes),
};

/**
 * Parquet, read one row group at a time through hyparquet's file-backed
 * buffer (only that group's column chunks are read from disk). `row` is the
 * row's position in the file, 1-based.
 */
export async function* readParquet(path: string, signal?: AbortSignal): AsyncGenerator<RowResult> {
  checkSignal(path, signal);
  const { file, metadata } = await openParquet(path);
  let start = 0;
  for (const group of metadata.row_groups) {
    checkSignal(path, signal);
    const end = start + Number(group.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end, parsers });
    } catch (error) {
      throw readFailure(path, error, signal);
    }
    for (const [i, row] of rows.entries()) {
      checkSignal(path, signal);
      yield toRow(start + i + 1, jsonValue(row));
    }
    start = end;
  }
}
