import { extname } from 'node:path';

import { FORMAT_BY_EXTENSION, type FileFormat } from '../../src-shared/file-formats.ts';

export { FILE_FORMATS, type FileFormat } from '../../src-shared/file-formats.ts';

/** The format a file name says (`.jsonl`, `.ndjson`, `.json`, `.csv`, `.parquet`, any case). */
export function formatFromPath(path: string): FileFormat | undefined {
  const extension = extname(path).toLowerCase();
  return Object.hasOwn(FORMAT_BY_EXTENSION, extension) ? FORMAT_BY_EXTENSION[extension] : undefined;
}
