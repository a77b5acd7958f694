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
