/**
 * Dataset files: streaming readers and writers for JSON Lines, JSON arrays,
 * CSV and Parquet.
 */
export { formatFromPath, FILE_FORMATS, type FileFormat } from './format.ts';
export type { RowResult } from './rows.ts';
export { readRows, type ReadOptions } from './read.ts';
export { readJsonlBatches } from './jsonl.ts';
export { writeRows } from './write.ts';
