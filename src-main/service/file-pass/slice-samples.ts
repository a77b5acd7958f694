import {
  rowMappingOf,
  samplesOfRows,
  type RowMapping,
  type SampleRow,
} from '../../engine/rows/index.ts';
import { jsonlRowsOf, jsonlRowsOfBytes } from '../../files/index.ts';
import { readSlice } from './line-slices.ts';
import type { SliceSource } from './task-types.ts';

/** A slice's rows read and mapped where a task runs (tasks.ts, shard-run-task.ts). */

const mappings = new Map<string, RowMapping>();

/** The row mapping a spec names, made once per worker. */
function mappingFor(spec: SliceSource['mapping']): RowMapping {
  const key = JSON.stringify(spec);
  let mapping = mappings.get(key);
  if (!mapping) mappings.set(key, (mapping = rowMappingOf(spec)));
  return mapping;
}

/**
 * The samples (and row errors) of a slice, in order; `lines`: of those lines
 * only (the others are not parsed).
 */
export function sliceSamples(source: SliceSource, lines?: ReadonlySet<number>): SampleRow[] {
  const bytes = readSlice(source.path, source);
  const rows = lines
    ? jsonlRowsOfBytes(bytes, source.firstLine, lines)
    : jsonlRowsOf(bytes.toString('utf8'), source.firstLine);
  return samplesOfRows(mappingFor(source.mapping), rows);
}
