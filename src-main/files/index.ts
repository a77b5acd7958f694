/**
 * Dataset files: streaming readers and writers for JSON Lines, JSON arrays,
 * CSV and Parquet. This file is the module's one door: code outside
 * `src-main/files/` imports from here only (eslint.config.js holds it so).
 *
 * - `read/`: one reader per format, and `readRows`, which picks by format.
 * - `write/`: plain writers, one per format, and `writeRows`, which picks by
 *   format; `temp-file.ts` makes a written file appear whole or not at all.
 * - `write-like/`: a repaired file written in its source's own layout
 *   (`readLayout` at import, `writeRowsLike` at export).
 * - here: format detection, errors, the CSV cell rule, kinds of JSON value.
 */
export { formatFromPath, FILE_FORMATS, type FileFormat } from './format.ts';
export { fsProblem } from './errors.ts';

export { readRows, type ReadOptions } from './read/read-rows.ts';
export { jsonlRowsOf, jsonlRowsOfBytes, readJsonlBatches } from './read/jsonl.ts';
export { fileChunks } from './read/file-chunks.ts';
export { firstNonUtf8Line, Utf8Watch } from './read/utf8-watch.ts';
export type { RowResult } from './read/row-result.ts';

export { writeRows } from './write/write-rows.ts';
export { tempFileBeside, type TempFile } from './write/temp-file.ts';

export { readLayout, type SourceLayout } from './write-like/layout.ts';
export type { ParquetLayout } from './write-like/parquet-layout.ts';
/** A Parquet file's layout; its module (hyparquet) loaded when one is read. */
export const readParquetLayout = async (
  path: string,
): Promise<import('./write-like/parquet-layout.ts').ParquetLayout> =>
  (await import('./write-like/parquet-layout.ts')).readParquetLayout(path);
export { writeRowsLike } from './write-like/write-rows-like.ts';
export type { SourcedRow } from './write-like/sourced-row.ts';

/**
 * Loads every format's module now. The readers and writers load theirs at
 * their first file of a format (a command or an engine worker reads JSON
 * Lines only); a server calls this before it listens, so that no request
 * waits while a format's library is loaded on its thread.
 */
export async function loadFileFormats(): Promise<void> {
  await Promise.all([
    import('./read/csv.ts'),
    import('./read/json.ts'),
    import('./read/parquet.ts'),
    import('./write/csv.ts'),
    import('./write/parquet.ts'),
    import('./write-like/csv.ts'),
    import('./write-like/csv-layout.ts'),
    import('./write-like/parquet.ts'),
    import('./write-like/parquet-layout.ts'),
  ]);
}
