import { AppError } from '../../../src-shared/errors.ts';
import { csvDelimiterForPath, FILE_FORMATS, type FileFormat } from '../format.ts';
import { JSON_ARRAY_FRAME, JSONL_FRAME, writeJsonRows } from './json.ts';
import { spool } from './spool.ts';
import { writeRowsWhole, type WriteOptions } from './temp-file.ts';

type Row = Record<string, unknown>;

async function* asAsync(rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<Row> {
  await Promise.resolve();
  yield* rows;
}

/**
 * Writes rows to `path` in `format`. The file appears whole or not at all: it
 * is written beside the target under a temporary name and renamed over it at
 * the end. Returns the rows written and the file's size in bytes.
 */
export async function writeRows(
  path: string,
  format: FileFormat,
  rows: AsyncIterable<Row> | Iterable<Row>,
  options: WriteOptions = {},
): Promise<{ rows: number; bytes: number }> {
  if (!FILE_FORMATS.includes(format)) {
    throw new AppError('invalid_request', `unknown file format ${JSON.stringify(format)}`);
  }
  return writeRowsWhole(
    path,
    async (partial, counter) => {
      if (format === 'jsonl') await writeJsonRows(partial, asAsync(rows), JSONL_FRAME, counter);
      else if (format === 'json') {
        await writeJsonRows(partial, asAsync(rows), JSON_ARRAY_FRAME, counter);
      } else {
        // CSV and Parquet need every column before the first row: the rows are read twice.
        const spooled = await spool(rows);
        try {
          // Their writers (papaparse, hyparquet-writer) are loaded when one is asked for.
          if (format === 'csv') {
            const { writeCsv } = await import('./csv.ts');
            await writeCsv(partial, spooled, counter, csvDelimiterForPath(path));
          } else await (await import('./parquet.ts')).writeParquet(partial, spooled, counter);
        } finally {
          await spooled.dispose();
        }
      }
    },
    options,
  );
}
