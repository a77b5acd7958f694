/**
 * How a row becomes a sample and goes back: the mapping in force for a
 * file's rows (a built-in shape, detected on its first rows or named, or a
 * field mapping), a row's samples under it, and a sample written back into
 * its row. Pure: reading the file is the service's (`service/samples`).
 */
export { mapRow, valuesOf, type RowResult } from './row-result.ts';
export {
  detectHead,
  resolveRowMapping,
  type MappingWanted,
  type RowMapping,
  type TreeMapping,
} from './row-mapping.ts';
export { DETECTION_ROWS, headMapping } from './head-mapping.ts';
export { samplesOfRow, samplesOfRows, type SampleRow } from './samples-of-row.ts';
export { mappingSpecOf, rowMappingOf, type RowMappingSpec } from './mapping-spec.ts';
