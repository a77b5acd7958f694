import { isDeepStrictEqual } from 'node:util';
import { parse } from 'csv-parse/sync';
import { decodeCell, encodeCell } from '../csv-cells.ts';
import type { CsvDelimiter } from '../read/csv-delimiter.ts';

/**
 * One CSV record written back the way its source record was written: an
 * unchanged record is byte for byte its source, and a changed one differs
 * only in the cells that changed, each keeping its source cell's quoting.
 */

/** A row's values in the order of a CSV header; a key the row lacks (or undefined) is null. */
export function csvRecordFor(
  layoutHeader: readonly string[],
  row: Record<string, unknown>,
): unknown[] {
  return layoutHeader.map((name) => (Object.hasOwn(row, name) ? (row[name] ?? null) : null));
}

/** One cell of a source record: its text and whether it was quoted. */
interface SourceCell {
  text: string;
  quoted: boolean;
}

/**
 * One record's text (without a terminator) for `values` in header order.
 * With `like`, the raw source record of the row: a cell whose value is what
 * that source cell reads as (or its text, or what encodes to its text) is
 * copied from it verbatim, quotes as they were; a changed cell is quoted if
 * its source cell was, or if it needs to be. Without `like`, or if `like` does
 * not have as many cells as `values`, cells are quoted only where needed.
 */
export function encodeCsvRecordLike(
  values: readonly unknown[],
  like: string | undefined,
  delimiter: CsvDelimiter = ',',
): string {
  const source = like === undefined ? undefined : sourceCells(like, delimiter);
  if (like === undefined || source?.cells.length !== values.length) {
    return joinRecord(
      values.map((value) => quoteCell(encodeCell(value), false, delimiter)),
      delimiter,
    );
  }
  const unchanged = values.map((value, i) => sameCell(value, source.cells[i]?.text ?? ''));
  if (unchanged.every(Boolean)) return like;
  return joinRecord(
    values.map((value, i) => {
      const cell = source.cells[i] ?? { text: '', quoted: false };
      return unchanged[i] && source.exact
        ? cellSource(cell)
        : quoteCell(encodeCell(value), cell.quoted, delimiter);
    }),
    delimiter,
  );
}

/** Whether `value` is what a source cell holds: its text, what it reads as, or what writes as it. */
function sameCell(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value === text;
  return encodeCell(value) === text || isDeepStrictEqual(value, decodeCell(text));
}

/**
 * The cells of a raw source record. The reader keeps no per-cell quoting
 * (that would be work on every row of a million-row import, for the few rows
 * that change), so the record is parsed again here, when it is written back,
 * with the reader's parser and options so both see the same cells; the
 * `cast` callback is where csv-parse tells whether a cell was quoted.
 * `exact`: the cells written back as they were (`cellSource`) give `like`
 * again, as they do for any RFC 4180 record (and for a quote inside an
 * unquoted cell); text after a closing quote (`"a"b`, read as is) does not.
 */
function sourceCells(
  like: string,
  delimiter: CsvDelimiter,
): { cells: SourceCell[]; exact: boolean } | undefined {
  // An empty line (a one-column file's empty value) holds no record for csv-parse.
  if (like === '') return { cells: [{ text: '', quoted: false }], exact: true };
  const quoted: boolean[] = [];
  let records: string[][];
  try {
    records = parse(like, {
      bom: false,
      delimiter,
      relax_quotes: true,
      // `like` has no terminator, but a lone \r or \n can be cell text (a CRLF
      // file's \n), so the record is split only at a NUL, which text has not.
      record_delimiter: '\u0000',
      cast: (value, context) => {
        quoted.push(context.quoting);
        return value;
      },
    });
  } catch {
    return undefined; // a quote never closed
  }
  const [fields, ...more] = records;
  if (!fields || more.length > 0) return undefined;
  const cells = fields.map((text, i) => ({ text, quoted: quoted[i] ?? false }));
  return { cells, exact: joinRecord(cells.map(cellSource), delimiter) === like };
}

/** A source cell's text as it was written. */
function cellSource({ text, quoted }: SourceCell): string {
  return quoted ? quote(text) : text;
}

/**
 * A cell's text, quoted when asked to or when it must be: the separator, a
 * quote or a line break in it, or a leading or trailing space (which other
 * readers trim; papaparse, which `writeCsv` uses, quotes those too).
 */
function quoteCell(text: string, quoted: boolean, delimiter: CsvDelimiter): string {
  return quoted ||
    /["\r\n]/.test(text) ||
    text.includes(delimiter) ||
    text.startsWith(' ') ||
    text.endsWith(' ')
    ? quote(text)
    : text;
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** Cells as a record; a one-column empty value is `""`, not a blank line, which readers skip. */
function joinRecord(cells: readonly string[], delimiter: CsvDelimiter): string {
  return cells.length === 1 && cells[0] === '' ? '""' : cells.join(delimiter);
}
