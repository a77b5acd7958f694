import { extname } from 'node:path';

export type FileFormat = 'jsonl' | 'json' | 'csv' | 'parquet';

export const FILE_FORMATS: readonly FileFormat[] = ['jsonl', 'json', 'csv', 'parquet'];

const BY_EXTENSION: Readonly<Record<string, FileFormat>> = {
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.json': 'json',
  '.csv': 'csv',
  '.parquet': 'parquet',
};

/** The format a file name says (`.jsonl`, `.ndjson`, `.json`, `.csv`, `.parquet`, any case). */
export function formatFromPath(path: string): FileFormat | undefined {
  const extension = extname(path).toLowerCase();
  return Object.hasOwn(BY_EXTENSION, extension) ? BY_EXTENSION[extension] : undefined;
}
