import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRows } from '../../src-main/files/index.ts';

/** Real dataset rows from resources/datasets, and files made from them for the import tests. */

const datasets = join(import.meta.dirname, '..', '..', 'resources', 'datasets');

export function readRows(name: string): Record<string, unknown>[] {
  return readFileSync(join(datasets, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export const workDir = (): string => mkdtempSync(join(tmpdir(), 'svc-e2e-files-'));

export async function writeDataset(
  dir: string,
  name: string,
  format: 'jsonl' | 'json' | 'csv' | 'tsv' | 'parquet',
  rows: Record<string, unknown>[],
): Promise<string> {
  const path = join(dir, `${name}.${format}`);
  // A .tsv is written as CSV with tabs (the writer goes by the name).
  await writeRows(path, format === 'tsv' ? 'csv' : format, rows);
  return path;
}
