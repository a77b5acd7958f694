import { open } from 'node:fs/promises';
import type { FileFormat } from '../format.ts';
import type { CsvLayout } from './csv-layout.ts';
import type { ParquetLayout } from './parquet-layout.ts';

/**
 * What a source file looked like, beyond its rows: enough to write the same
 * file back with only some rows changed. Stored with a dataset as JSON.
 */
export interface SourceLayout {
  format: FileFormat;
  /** Text formats: the line terminator the file uses. */
  newline?: '\n' | '\r\n';
  csv?: CsvLayout;
  parquet?: ParquetLayout;
}

/** The newline of a text file: CRLF when its first line ends so, else LF. */
async function newlineOf(path: string): Promise<'\n' | '\r\n'> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const at = buffer.subarray(0, bytesRead).indexOf(10);
    return at > 0 && buffer[at - 1] === 13 ? '\r\n' : '\n';
  } finally {
    await handle.close();
  }
}

/** The layout of a file the readers could read (called after its first rows are in). */
export async function readLayout(path: string, format: FileFormat): Promise<SourceLayout> {
  switch (format) {
    case 'jsonl':
      return { format, newline: await newlineOf(path) };
    case 'json':
      return { format };
    // The CSV and Parquet layouts' modules load their parsers: loaded when one is read.
    case 'csv': {
      const csv = await (await import('./csv-layout.ts')).readCsvLayout(path);
      return { format, newline: csv.newline, csv };
    }
    case 'parquet':
      return {
        format,
        parquet: await (await import('./parquet-layout.ts')).readParquetLayout(path),
      };
  }
}
