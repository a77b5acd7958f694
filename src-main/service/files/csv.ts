import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import Papa from 'papaparse';
import { decodeCell } from './cells.ts';
import { checkSignal, readFailure, unreadable } from './errors.ts';
import type { RowResult } from './rows.ts';
import { sniffText } from './source.ts';

/**
 * CSV with a header row, streamed through papaparse's Node stream (which
 * pauses the file while rows wait to be taken). Comma-separated, RFC 4180
 * quoting. Empty lines are skipped, except in a one-column file, where an
 * empty line is an empty value (the writer quotes those: `""`). Cells follow
 * the rule in `cells.ts`. A row with more or fewer fields than the header is a
 * row error. `row` counts data rows (the header and skipped lines excluded).
 */
export async function* readCsv(path: string, signal?: AbortSignal): AsyncGenerator<RowResult> {
  checkSignal(path, signal);
  await sniffText(path, 'CSV');
  const file = createReadStream(path, { encoding: 'utf8', signal });
  const parsed = pipeline(
    file,
    Papa.parse(Papa.NODE_STREAM_INPUT, { delimiter: ',', header: false, skipEmptyLines: false }),
    () => undefined, // errors surface through the iteration below
  );
  let header: string[] | undefined;
  let row = 0;
  try {
    for await (const fields of parsed as AsyncIterable<string[]>) {
      const blank = fields.length === 1 && fields[0] === '';
      if (blank && header?.length !== 1) continue;
      if (!header) {
        header = readHeader(path, fields);
        continue;
      }
      row++;
      checkSignal(path, signal);
      if (fields.length !== header.length) {
        yield {
          row,
          error: `expected ${header.length} fields (as the header has), got ${fields.length}`,
        };
        continue;
      }
      const value = Object.fromEntries(
        header.map((name, i) => [name, decodeCell(fields[i] ?? '')]),
      );
      // Where a cell was read as JSON, the row keeps its cells as text too (see mapRow).
      const decodedAny = header.some((name) => typeof value[name] !== 'string');
      yield decodedAny
        ? { row, value, text: Object.fromEntries(header.map((name, i) => [name, fields[i] ?? ''])) }
        : { row, value };
    }
  } catch (error) {
    throw readFailure(path, error, signal);
  } finally {
    file.destroy();
    parsed.destroy();
  }
}

function readHeader(path: string, fields: string[]): string[] {
  const header = fields.map((name, i) => (i === 0 ? name.replace(/^\ufeff/, '') : name));
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw unreadable(path, `the CSV header names the column "${name}" twice`);
    seen.add(name);
  }
  return header;
}
