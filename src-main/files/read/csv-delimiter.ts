import { extname } from 'node:path';
import { sniffText } from './sniff.ts';

/** A CSV file's cell separator: a comma, a tab (TSV), a semicolon (a decimal comma's locales). */
export type CsvDelimiter = ',' | '\t' | ';';

/** The separator of the CSV file at `path` (see `csvDelimiter`); an error if it is not text. */
export async function csvDelimiterOf(path: string): Promise<CsvDelimiter> {
  return csvDelimiter(path, await sniffText(path, 'CSV'));
}

/**
 * The separator of a CSV file, read from its header record (in `head`, the
 * file's first bytes): a spreadsheet saves a comma-separated file with
 * semicolons where the comma is the decimal mark (most of Europe), and TSV
 * is CSV with tabs. csv-parse takes the delimiter but does not detect one,
 * and a guess from the data rows could be misled by their text, so the
 * header decides: it names the columns, and holds a separator between every
 * two. A comma in it outside quotes makes it comma-separated, else a tab,
 * else a semicolon; a header of one column is comma-separated. A `.tsv`
 * file looks for a tab first (a column name may hold a comma).
 */
export function csvDelimiter(path: string, head: Buffer): CsvDelimiter {
  const counts = separatorsInHeader(head.toString('utf8'));
  const order: CsvDelimiter[] =
    extname(path).toLowerCase() === '.tsv' ? ['\t', ',', ';'] : [',', '\t', ';'];
  return order.find((delimiter) => (counts.get(delimiter) ?? 0) > 0) ?? ',';
}

/** How often each separator occurs in the first record with text, outside quotes. */
function separatorsInHeader(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  let quoted = false;
  let started = false;
  for (const char of text.replace(/^\ufeff/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) {
      // Blank lines before the header are skipped, as the reader skips them.
      if (started) break;
      continue;
    } else if (!quoted && (char === ',' || char === '\t' || char === ';')) {
      counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    started = true;
  }
  return counts;
}
