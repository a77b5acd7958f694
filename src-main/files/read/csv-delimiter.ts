import { isTsvName } from '../../../src-shared/file-formats.ts';
import { sniffText } from './sniff.ts';

/** A CSV file's cell separator: a comma, a tab (TSV), a semicolon (a decimal comma's locales). */
export type CsvDelimiter = ',' | '\t' | ';';

/** The bytes of a file looked at for its separator: the header and the rows after it. */
const HEAD_BYTES = 64 * 1024;
/** The records after the header looked at to confirm a separator. */
const CONFIRMING_RECORDS = 20;

/** The separator of the CSV file at `path` (see `csvDelimiter`); an error if it is not text. */
export async function csvDelimiterOf(path: string): Promise<CsvDelimiter> {
  const { head, size } = await sniffText(path, 'CSV', HEAD_BYTES);
  return csvDelimiter(path, head, head.length >= size);
}

/**
 * The separator of a CSV file, from its first bytes (`head`; `whole`: the
 * file ends there): a spreadsheet saves a comma-separated file with
 * semicolons where the comma is the decimal mark (most of Europe), and TSV
 * is CSV with tabs. csv-parse takes a delimiter but does not detect one, so
 * it is found here, each candidate counted as the reader would cut cells
 * with it (a quote opens a cell only at its start: `relax_quotes`):
 *
 * - A `.csv` (or any other name) whose header holds a comma is
 *   comma-separated, as every CSV was read before. Else a tab, else a
 *   semicolon in the header, if the records after it hold as many (most of
 *   them: a bad row is a row error, not another separator); with no record
 *   after it to tell, a comma: a one-column file named `text; notes` stays
 *   one column.
 * - A `.tsv` is tab-separated if its header holds a tab, and also when no
 *   other separator is confirmed (a one-column TSV written back stays TSV).
 */
export function csvDelimiter(path: string, head: Buffer, whole = false): CsvDelimiter {
  const text = head.toString('utf8').replace(/^\ufeff/, '');
  const confirmed = (delimiter: CsvDelimiter): boolean => {
    const [header = 0, ...rows] = separatorsPerRecord(text, delimiter, whole);
    if (header === 0 || rows.length === 0) return false;
    return rows.filter((count) => count === header).length * 2 >= rows.length;
  };
  const inHeader = (delimiter: CsvDelimiter): boolean =>
    (separatorsPerRecord(text, delimiter, whole)[0] ?? 0) > 0;
  if (isTsvName(path)) {
    if (inHeader('\t')) return '\t';
    return confirmed(',') ? ',' : confirmed(';') ? ';' : '\t';
  }
  if (inHeader(',')) return ',';
  return confirmed('\t') ? '\t' : confirmed(';') ? ';' : ',';
}

/**
 * How many `delimiter`s each record of `text` holds outside quotes, cut as
 * csv-parse cuts them with it: a quote opens a quoted cell only at a cell's
 * start, `""` inside one is a quote, blank lines are skipped. The last
 * record counts only if `whole` says the file ends with it (else it may be
 * cut short).
 */
function separatorsPerRecord(text: string, delimiter: CsvDelimiter, whole: boolean): number[] {
  const records: number[] = [];
  let count = 0;
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
      if (!blank) records.push(count);
      count = 0;
      blank = true;
      cellStart = true;
      continue;
    }
    blank = false;
    if (char === delimiter) {
      count++;
      cellStart = true;
      continue;
    }
    if (char === '"' && cellStart) quoted = true;
    cellStart = false;
  }
  // A header cut short is still the header; a later record only if the file ends with it.
  if (!blank && !quoted && (whole || records.length === 0)) records.push(count);
  return records;
}
