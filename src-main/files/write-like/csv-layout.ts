import { unreadable } from '../errors.ts';
import { csvDelimiterOf, type CsvDelimiter } from '../read/csv-delimiter.ts';
import { readCsvRecords, readHeader } from '../read/csv-records.ts';

/** A CSV file's header and newline style, stored with a dataset (JSON-serialisable). */
export interface CsvLayout {
  /** The column names, as `readCsv` reads them. */
  header: string[];
  /** The header record's source text, without its line terminator (or a byte order mark). */
  header_raw: string;
  /** The file's newline style (an old Mac file's `\r` is written as `\n`). */
  newline: '\n' | '\r\n';
  /** The cell separator when not a comma (absent in layouts stored before others were read). */
  delimiter?: Exclude<CsvDelimiter, ','>;
}

/** The cell separator of a CSV layout. */
export function delimiterOf(layout: CsvLayout): CsvDelimiter {
  return layout.delimiter ?? ',';
}

/** The layout of a CSV file; an empty file has no columns. */
export async function readCsvLayout(path: string): Promise<CsvLayout> {
  const delimiter = await csvDelimiterOf(path);
  const separated = delimiter === ',' ? {} : { delimiter };
  for await (const record of readCsvRecords(path)) {
    if ('error' in record) {
      throw unreadable(path, `the CSV header is broken: ${record.error}`);
    }
    const { fields, raw, newline } = record;
    // blank lines before the header, as readCsv skips them
    if (fields.length === 1 && fields[0] === '') continue;
    return {
      header: readHeader(path, fields),
      header_raw: raw,
      newline: newline === '\r\n' ? '\r\n' : '\n',
      ...separated,
    };
  }
  return { header: [], header_raw: '', newline: '\n', ...separated };
}
