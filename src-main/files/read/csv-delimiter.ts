import { extname } from 'node:path';
import { sniffText } from './sniff.ts';

/** A CSV file's cell separator: a comma, a tab (TSV), a semicolon (a decimal comma's locales). */
export type CsvDelimiter = ',' | '\t' | ';';

/** The separator of the CSV file at `path` (see `csvDelimiter`); an error if it is not text. */
export async function csvDelimiterOf(path: string): Promise<CsvDelimiter> {
  return csvDelimiter(path, await sniffText(path, 'CSV'));
}

/** The records of the file's head looked at to confirm a separator the header alone suggests. */
const CONFIRMING_RECORDS = 20;

/**
 * The separator of a CSV file, from its first bytes (`head`): a spreadsheet
 * saves a comma-separated file with semicolons where the comma is the
 * decimal mark (most of Europe), and TSV is CSV with tabs. csv-parse takes a
 * delimiter but does not detect one, so it is found here, as the reader
 * cuts cells (quotes open only at a cell's start, `relax_quotes`):
 *
 * - A `.csv` (or any other name) whose header holds a comma outside quotes
 *   is comma-separated, as every CSV was read before. Else a tab, else a
 *   semicolon in the header, if the records after it in `head` hold as many
 *   (most of them: a bad row is a row error, not another separator): a
 *   one-column file named `text; notes` stays one column. Else a comma.
 * - A `.tsv` is tab-separated if its header holds a tab, and also when no
 *   other separator is confirmed (a one-column TSV written back stays TSV).
 */
export function csvDelimiter(path: string, head: Buffer): CsvDelimiter {
  const records = separatorCounts(head.toString('utf8').replace(/^\ufeff/, ''));
  const [header, ...rows] = records;
  if (!header) return tsv(path) ? '\t' : ',';
  const confirmed = (delimiter: CsvDelimiter): boolean => {
    const wanted = header.get(delimiter) ?? 0;
    if (wanted === 0) return false;
    const agreeing = rows.filter((row) => (row.get(delimiter) ?? 0) === wanted).length;
    return agreeing * 2 >= rows.length;
  };
  if (tsv(path)) {
    if ((header.get('\t') ?? 0) > 0) return '\t';
    return confirmed(',') ? ',' : confirmed(';') ? ';' : '\t';
  }
  if ((header.get(',') ?? 0) > 0) return ',';
  return confirmed('\t') ? '\t' : confirmed(';') ? ';' : ',';
}

const tsv = (path: string): boolean => extname(path).toLowerCase() === '.tsv';

/**
 * Per record of `text` (blank lines skipped, the last one dropped unless
 * `text` ends after it: it may be cut short), how often each separator
 * occurs outside quotes. A quote opens a quoted cell only at a cell's start
 * (after a separator, or a record's start); inside one, `""` is a quote.
 */
function separatorCounts(text: string): Map<string, number>[] {
  const records: Map<string, number>[] = [];
  let counts = new Map<string, number>();
  let blank = true;
  let quoted = false;
  let cellStart = true;
  for (let i = 0; i < text.length && records.length <= CONFIRMING_RECORDS; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
      continue;
    }
    if (char === '\n' || char === '\r') {
      if (!blank) records.push(counts);
      counts = new Map();
      blank = true;
      cellStart = true;
      continue;
    }
    blank = false;
    if (char === ',' || char === '\t' || char === ';') {
      counts.set(char, (counts.get(char) ?? 0) + 1);
      cellStart = true;
      continue;
    }
    if (char === '"' && cellStart) quoted = true;
    cellStart = false;
  }
  // The last record counts only if the head holds the whole of it (the file ends there).
  if (!blank && !quoted && records.length === 0) records.push(counts);
  return records;
}
