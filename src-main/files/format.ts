import { extname } from 'node:path';

import { FORMAT_BY_EXTENSION, isTsvName, type FileFormat } from '../../src-shared/file-formats.ts';

export { FILE_FORMATS, type FileFormat } from '../../src-shared/file-formats.ts';

/**
 * The format a file's name says, in any case: `.jsonl`, `.ndjson`, `.json`,
 * `.csv`, `.tsv` (CSV with tabs), `.parquet`.
 */
export function formatFromPath(path: string): FileFormat | undefined {
  const extension = extname(path).toLowerCase();
  return Object.hasOwn(FORMAT_BY_EXTENSION, extension) ? FORMAT_BY_EXTENSION[extension] : undefined;
}

/**
 * The separator a plain CSV writer uses for a file name: tabs in a `.tsv`
 * file (TSV is read as CSV with tabs), else commas.
 */
export function csvDelimiterForPath(path: string): ',' | '\t' {
  return isTsvName(path) ? '\t' : ',';
}
