import Papa from 'papaparse';
import { encodeCell } from '../csv-cells.ts';
import type { Spooled } from './spool.ts';
import { writeText } from './text.ts';

/** Rows per `Papa.unparse` call: big enough to amortise it, small enough to stream. */
const CSV_BATCH = 1000;

/**
 * CSV: a header of every key in first-seen order, then one line per row
 * (cells as in `csv-cells.ts`; a key a row lacks is an empty cell), separated
 * by `delimiter` (a comma, or a tab for TSV). A one-column
 * file quotes every cell, so an empty value is not read back as a blank line.
 */
export async function writeCsv(
  path: string,
  spooled: Spooled,
  counter: { rows: number },
  delimiter: ',' | '\t' = ',',
): Promise<void> {
  const { keys } = spooled;
  const config = { newline: '\n', quotes: keys.length === 1, delimiter };
  await writeText(
    path,
    (async function* () {
      // A header without a comma (one column) holding a tab or semicolon would be read back as
      // separated by it (read/csv-delimiter.ts): such a name is quoted.
      const headerQuotes = keys.map((key) => config.quotes || /[\t;]/.test(key));
      yield Papa.unparse([keys], { ...config, quotes: headerQuotes }) + '\n';
      let batch: string[][] = [];
      for await (const row of spooled.rows()) {
        batch.push(keys.map((key) => encodeCell(row[key])));
        counter.rows++;
        if (batch.length >= CSV_BATCH) {
          yield Papa.unparse(batch, config) + '\n';
          batch = [];
        }
      }
      if (batch.length > 0) yield Papa.unparse(batch, config) + '\n';
    })(),
  );
}
