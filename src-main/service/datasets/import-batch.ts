import type { RowMapping, SampleRow } from '../../engine/rows/index.ts';
import type { FileFormat } from '../../files/index.ts';
import type { ImportErrorRecord } from '../../store/datasets.ts';

/**
 * What an import stores of a batch of rows read, column by column: the
 * rows' fields as the store takes them, and the rows that could not be read
 * or mapped. Made where the rows are read (a worker for a large file, see
 * import-reader.ts) so that the thread that writes them gets strings only:
 * a batch of a few arrays of strings crosses threads at the cost of a copy,
 * where the samples and originals as objects would be rebuilt key by key.
 */
export interface ImportBatch {
  /** Per row read, in order: its row in the file (1-based, as the readers count). */
  sourceRows: number[];
  taskTypes: string[];
  /** The row as read: a JSON Lines line byte for byte, other formats as JSON. */
  originals: string[];
  /** A CSV row's raw record (null for the other formats). */
  raws: (string | null)[];
  /** A tree read along every path: the path's route as JSON (else null). */
  paths: (string | null)[];
  errors: ImportErrorRecord[];
}

/** How a dataset keeps the mapping its rows were read with. */
export interface MappingColumns {
  mapping_json: string | null;
  paths: 'best' | 'all' | null;
}

export function mappingColumns(mapping: RowMapping): MappingColumns {
  return {
    mapping_json: mapping.mapping ? JSON.stringify(mapping.mapping) : null,
    paths: mapping.shape === 'oasst' ? (mapping.tree ? 'all' : 'best') : null,
  };
}

/** A batch of samples read from a file of `format`, as the import stores it. */
export function importBatchOf(batch: readonly SampleRow[], format: FileFormat): ImportBatch {
  // A JSON Lines line is kept as it was (it is the row's JSON); other formats as JSON.
  const keepsLine = format === 'jsonl';
  const keepsRecord = format === 'csv';
  const out: ImportBatch = {
    sourceRows: [],
    taskTypes: [],
    originals: [],
    raws: [],
    paths: [],
    errors: [],
  };
  for (const result of batch) {
    if ('error' in result) {
      out.errors.push({ row: result.row, message: result.error });
      continue;
    }
    out.sourceRows.push(result.row);
    out.taskTypes.push(result.sample.task_type);
    out.originals.push(
      keepsLine && result.raw !== undefined ? result.raw : JSON.stringify(result.original),
    );
    out.raws.push(keepsRecord ? (result.raw ?? null) : null);
    out.paths.push(result.path ? JSON.stringify(result.path.route) : null);
  }
  return out;
}

/** The last row of the file a batch holds, read or not (0 for none). */
export function lastRowOf(batch: ImportBatch): number {
  let last = 0;
  for (const row of batch.sourceRows) if (row > last) last = row;
  for (const error of batch.errors) if (error.row > last) last = error.row;
  return last;
}

/**
 * What of a batch comes after row `after` of the file, or undefined when
 * nothing does. A row's samples (a tree read along every path) are all in
 * the batch that read the row, so none is split.
 */
export function rowsAfter(batch: ImportBatch, after: number): ImportBatch | undefined {
  const errors = batch.errors.filter((error) => error.row > after);
  const from = batch.sourceRows.findIndex((row) => row > after);
  if (from < 0 && errors.length === 0) return undefined;
  if (from === 0 && errors.length === batch.errors.length) return batch;
  const start = from < 0 ? batch.sourceRows.length : from;
  return {
    sourceRows: batch.sourceRows.slice(start),
    taskTypes: batch.taskTypes.slice(start),
    originals: batch.originals.slice(start),
    raws: batch.raws.slice(start),
    paths: batch.paths.slice(start),
    errors,
  };
}
