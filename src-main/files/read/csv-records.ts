import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { checkSignal, readFailure, unreadable } from '../errors.ts';
import { csvDelimiterOf } from './csv-delimiter.ts';

/** One CSV record as it is in the file. */
export interface CsvRecord {
  /** The cells' text. */
  fields: string[];
  /** The record's exact source text, without its line terminator. */
  raw: string;
  /** The terminator that ended it: `\n`, `\r\n` (an old Mac's `\r`); '' for a last line without one. */
  newline: string;
}

/** What csv-parse yields with `raw: true`. */
interface ParsedRecord {
  record: string[];
  raw: string;
}

const LF = 0x0a;

const UNCLOSED = 'a quoted cell is never closed (the file ends inside it)';

/**
 * The records of a CSV file, streamed through csv-parse's Node stream (which
 * pauses the file while records wait to be taken). Separated by commas, tabs
 * or semicolons as the header is (`csvDelimiter`); RFC 4180 quoting; a quote
 * inside an unquoted cell is text (`relax_quotes`, as papaparse read it
 * before). The newline style is the first terminator outside quotes (`\r\n`,
 * `\n` or `\r`), for the whole file, so in a CRLF file a lone `\n` is cell
 * text. A UTF-8 byte order mark is dropped (and is not in
 * `raw`). Empty lines are records of one empty cell. A record whose quote is
 * never closed (it can only be the last) comes as `{ error, raw }`.
 */
export async function* readCsvRecords(
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<CsvRecord | { error: string; raw: string }> {
  checkSignal(path, signal);
  const delimiter = await csvDelimiterOf(path);
  // With these options the only record csv-parse can skip is one whose quote
  // is still open at the end of the file; anything else is a cell's text.
  let unclosed: string | undefined; // its raw text, to the end of the file
  const parser = parse({
    bom: true,
    delimiter,
    raw: true,
    relax_column_count: true, // the reader reports a wrong count as a row error
    relax_quotes: true,
    skip_records_with_error: true,
    on_skip: (_error, raw) => {
      unclosed = raw ?? '';
    },
  });
  const file = createReadStream(path, { signal });
  // The file's last byte: whether a CRLF file's last record ended with its terminator.
  let lastByte: number | undefined;
  file.on('data', (chunk: Buffer | string) => {
    if (typeof chunk !== 'string') lastByte = chunk.at(-1) ?? lastByte; // no encoding: Buffers
  });
  // errors surface through the iteration below
  const parsed = pipeline(file, parser, () => undefined);
  // csv-parse's `raw` keeps the first character of the record's terminator
  // (the `\r` of a CRLF, not its `\n`) and nothing of a last line without
  // one. A record followed by another one was terminated, so it loses one
  // character; the last record is held back until the end says which it is.
  let newline: string | undefined;
  let pending: ParsedRecord | undefined;
  try {
    for await (const next of parsed as AsyncIterable<ParsedRecord>) {
      if (pending) {
        newline ??= newlineOf(parser);
        yield { fields: pending.record, raw: pending.raw.slice(0, -1), newline };
      }
      pending = next;
    }
    const followed = unclosed !== undefined || lastByte === LF;
    if (pending) yield lastRecord(pending, newlineOf(parser), followed);
    if (unclosed !== undefined) yield { error: UNCLOSED, raw: unclosed };
  } catch (error) {
    throw readFailure(path, error, signal);
  } finally {
    file.destroy();
    parser.destroy();
  }
}

/** The record delimiter csv-parse found (it detects it at the first terminator); '' before that. */
function newlineOf(parser: Parser): string {
  return parser.options.record_delimiter[0]?.toString('utf8') ?? '';
}

/**
 * The file's last record: terminated if its raw text ends with the
 * terminator's first character, except that a CRLF file's last `\r` is cell
 * text unless the file goes on with `\n` (`followed`: it does, or another
 * record came after).
 */
function lastRecord({ record, raw }: ParsedRecord, newline: string, followed: boolean): CsvRecord {
  const terminated =
    newline !== '' && raw.endsWith(newline[0] ?? '') && (newline !== '\r\n' || followed);
  return terminated
    ? { fields: record, raw: raw.slice(0, -1), newline }
    : { fields: record, raw, newline: '' };
}

/** The column names of a header record: BOM stripped, each name once. */
export function readHeader(path: string, fields: readonly string[]): string[] {
  const header = fields.map((name, i) => (i === 0 ? name.replace(/^\ufeff/, '') : name));
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw unreadable(path, `the CSV header names the column "${name}" twice`);
    seen.add(name);
  }
  return header;
}
