import { readJsonlBatches, readRows, type FileFormat, type RowResult } from '../../files/index.ts';
import {
  DETECTION_ROWS,
  headMapping,
  samplesOfRow,
  type ReadSamplesOptions,
  type SampleRow,
} from '../samples/read-samples.ts';

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
  const head: RowResult[] = [];
  const rest: RowResult[] = [];
  while (head.length < DETECTION_ROWS) {
    const next = await source.next();
    if (next.done === true) break;
    for (const result of next.value) {
      if (head.length < DETECTION_ROWS) head.push(result);
      else rest.push(result);
    }
  }
  const mapping = headMapping(path, head, options);
  if (!mapping) return;
  options.onMapping?.(mapping);
  const toSamples = (results: readonly RowResult[]): SampleRow[] => {
    const out: SampleRow[] = [];
    for (const result of results) {
      const samples = samplesOfRow(mapping, result);
      if (samples.length === 1) out.push(samples[0] as SampleRow);
      else out.push(...samples);
    }
    return out;
  };
  yield toSamples(head.concat(rest));
  for await (const batch of source) yield toSamples(batch);
}
