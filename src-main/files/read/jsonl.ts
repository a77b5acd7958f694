import { checkSignal, unreadable } from '../errors.ts';
import { readLineBatches } from './lines.ts';
import { toRow, type RowResult } from './row-result.ts';
import { sniffText } from './sniff.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/** A file that starts with this many unparsable lines (and no good one) is not JSON Lines. */
const LEADING_FAILURES_MAX = 10;

/**
 * JSON Lines, streamed: one object per line; blank lines are skipped; a line
 * that is not JSON, or not an object, is a row error and reading goes on. A
 * file whose first lines are all unparsable (up to ten, or the whole file) is
 * not JSON Lines at all and throws.
 */
export async function* readJsonl(
  path: string,
  signal?: AbortSignal,
  what = 'JSON Lines',
): AsyncGenerator<RowResult> {
  for await (const batch of readJsonlBatches(path, signal, what)) {
    for (const result of batch) {
      checkSignal(path, signal);
      yield result;
    }
  }
}

/** readJsonl a read at a time: the rows of each chunk of the file as one array. */
export async function* readJsonlBatches(
  path: string,
  signal?: AbortSignal,
  what = 'JSON Lines',
): AsyncGenerator<RowResult[]> {
  checkSignal(path, signal);
  await sniffText(path, what);
  let leading: RowResult[] | undefined = [];
  for await (const { first, texts } of readLineBatches(path, signal)) {
    const batch: RowResult[] = [];
    for (let i = 0; i < texts.length; i++) {
      const result = jsonlRow(first + i, texts[i] as string);
      if (result === null) continue;
      if ('error' in result) {
        if (leading) {
          leading.push(result);
          if (leading.length >= LEADING_FAILURES_MAX) throw notJsonLines(path, what, leading);
          continue;
        }
      }
      if (leading) {
        batch.push(...leading);
        leading = undefined;
      }
      batch.push(result);
    }
    checkSignal(path, signal);
    if (batch.length > 0) yield batch;
  }
  if (leading && leading.length > 0) throw notJsonLines(path, what, leading);
}

/**
 * One line of JSON Lines as a row (`line`: its 1-based number): null for a
 * blank line, a row error for one that is not a JSON object.
 */
export function jsonlRow(line: number, text: string): RowResult | null {
  if (text.trim() === '') return null;
  try {
    // The line itself rides along: an unchanged row is written back byte for byte.
    return toRow(line, parseJsonExact(text), text);
  } catch (error) {
    return { row: line, error: `invalid JSON: ${(error as Error).message}`, raw: text };
  }
}

/**
 * The rows of whole lines of JSON Lines, `text` starting at line `first` (a
 * slice of a file cut at line ends; the file's first slice may start with a
 * BOM). Lines are read as `readJsonl` reads them, but for its rule on a file
 * whose first lines are all unparsable: the caller reads the head for that.
 * `only`: the numbers of the lines to read; the others are not parsed.
 */
export function jsonlRowsOf(text: string, first: number, only?: ReadonlySet<number>): RowResult[] {
  const rows: RowResult[] = [];
  let start = first === 1 && text.startsWith('\ufeff') ? 1 : 0;
  for (let line = first; start < text.length; line++) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    if (only && !only.has(line)) {
      // A line not asked for is passed over unread (the words of a few rows of a slice).
      start = end + 1;
      continue;
    }
    const raw =
      text.charCodeAt(end - 1) === 13 && end > start
        ? text.slice(start, end - 1)
        : text.slice(start, end);
    const result = jsonlRow(line, raw);
    if (result !== null) rows.push(result);
    start = end + 1;
  }
  return rows;
}

/**
 * `jsonlRowsOf(bytes.toString('utf8'), first, only)`, decoding only the lines
 * in `only`: a few rows of a slice (the words a verification compares, the
 * texts a language sample keeps) cost a scan for line ends, not the whole
 * slice made a string. A newline byte is never inside a UTF-8 sequence, so
 * each line decodes as it does within the whole.
 */
export function jsonlRowsOfBytes(
  bytes: Buffer,
  first: number,
  only: ReadonlySet<number>,
): RowResult[] {
  const rows: RowResult[] = [];
  const bom = first === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let start = bom ? 3 : 0;
  for (let line = first; start < bytes.length; line++) {
    const newline = bytes.indexOf(10, start);
    const end = newline < 0 ? bytes.length : newline;
    if (only.has(line)) {
      const cut = end > start && bytes[end - 1] === 13 ? end - 1 : end;
      const result = jsonlRow(line, bytes.toString('utf8', start, cut));
      if (result !== null) rows.push(result);
    }
    start = end + 1;
  }
  return rows;
}

function notJsonLines(path: string, what: string, failures: RowResult[]): Error {
  const first = failures[0];
  const detail = first && 'error' in first ? ` (line ${first.row}: ${first.error})` : '';
  return unreadable(path, `not ${what}${detail}`);
}
