import type { FieldMapping, OasstPaths } from '../../../src-shared/schemas/mapping.ts';
import {
  DETECTION_ROWS,
  headMapping,
  samplesOfRow,
  samplesOfRows,
  type RowMapping,
  type RowResult,
  type SampleRow,
} from '../../engine/rows/index.ts';
import type { ShapeId } from '../../engine/shapes/index.ts';
import { readJsonlBatches, readRows, type FileFormat } from '../../files/index.ts';

/**
 * A dataset file as samples: rows are read as a stream, the shape is
 * detected on the first rows unless a shape or a field mapping is given, and
 * each row becomes its samples or its error (see engine/rows). The CLI reads
 * a row at a time (`readSamples`), the app's import a batch at a time
 * (`readSampleBatches`), its preview just the first rows (`readHead`).
 */

export interface ReadSamplesOptions {
  format?: FileFormat | undefined;
  /** Force a shape instead of detecting it. */
  shape?: ShapeId | undefined;
  /** Read the rows through this field mapping. */
  mapping?: FieldMapping | undefined;
  /** OpenAssistant trees: a row per tree along the best path (default) or a row per path. */
  paths?: OasstPaths | undefined;
  signal?: AbortSignal | undefined;
  /** Told the mapping once the first rows are in. */
  onMapping?: ((mapping: RowMapping) => void) | undefined;
}

/**
 * The first DETECTION_ROWS rows of a stream of rows or of batches, and what
 * was left of the batch that completed them. Read by hand: breaking out of a
 * for-await would close the stream.
 */
async function takeHead<T>(
  source: AsyncIterator<T>,
  rowsOf: (item: T) => readonly RowResult[],
): Promise<{ head: RowResult[]; rest: RowResult[] }> {
  const head: RowResult[] = [];
  const rest: RowResult[] = [];
  while (head.length < DETECTION_ROWS) {
    const next = await source.next();
    if (next.done === true) break;
    for (const result of rowsOf(next.value)) {
      if (head.length < DETECTION_ROWS) head.push(result);
      else rest.push(result);
    }
  }
  return { head, rest };
}

const one = (result: RowResult): readonly RowResult[] => [result];

/** The mapping of a file's first rows, told to `onMapping`; undefined for an empty file. */
function mappingOf(
  path: string,
  head: readonly RowResult[],
  options: ReadSamplesOptions,
): RowMapping | undefined {
  const mapping = headMapping(path, head, options);
  if (mapping) options.onMapping?.(mapping);
  return mapping;
}

/** The first rows of a file (DETECTION_ROWS), as read; the file is closed after. */
export async function readHead(path: string, format: FileFormat | undefined): Promise<RowResult[]> {
  const rows = readRows(path, { format });
  try {
    return (await takeHead(rows, one)).head;
  } finally {
    await rows.return(undefined); // closes the file
  }
}

/** A file's samples, a row at a time (see the top of this file). */
export async function* readSamples(
  path: string,
  options: ReadSamplesOptions = {},
): AsyncGenerator<SampleRow> {
  const rows = readRows(path, { format: options.format, signal: options.signal });
  const { head } = await takeHead(rows, one);
  const mapping = mappingOf(path, head, options);
  if (!mapping) return;
  for (const result of head) yield* samplesOfRow(mapping, result);
  for (let next = await rows.next(); !next.done; next = await rows.next()) {
    yield* samplesOfRow(mapping, next.value);
  }
}

/** Rows per batch for the formats read a row at a time (JSON arrays, CSV, Parquet). */
const ROWS_PER_BATCH = 1000;

async function* batched<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function rowBatches(
  path: string,
  format: FileFormat | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<RowResult[]> {
  // JSON Lines come a read of the file at a time; the others are batched as they stream.
  if (format === 'jsonl') return readJsonlBatches(path, signal);
  return batched(readRows(path, { format, signal }), ROWS_PER_BATCH);
}

/**
 * readSamples a batch at a time: the same rows, mapping and errors, but one
 * array per read of the file, so an import's work per row is a plain
 * synchronous loop (no generator step, no promise per row).
 */
export async function* readSampleBatches(
  path: string,
  options: ReadSamplesOptions = {},
): AsyncGenerator<SampleRow[]> {
  const source = rowBatches(path, options.format, options.signal);
  const { head, rest } = await takeHead(source, (batch) => batch);
  const mapping = mappingOf(path, head, options);
  if (!mapping) return;
  yield samplesOfRows(mapping, head.concat(rest));
  for await (const batch of source) yield samplesOfRows(mapping, batch);
}
