import { decodeCell } from '../csv-cells.ts';
import { checkSignal, unreadable } from '../errors.ts';
import { readCsvRecords, readHeader } from './csv-records.ts';
import type { RowResult } from './row-result.ts';

/**
 * CSV with a header row (see `readCsvRecords`). Empty lines are skipped,
 * except in a one-column file, where an empty line is an empty value (the
 * writer quotes those: `""`). Cells follow the rule in `csv-cells.ts`; a row with
 * a cell read as other than its text keeps every cell's text as well
 * (`text`, see `mapRow`). Every row, and every row error, carries `raw`: its
 * record's source text without the line terminator. A row with more or fewer
 * fields than the header is a row error. `row` counts data rows (the header
 * and skipped lines excluded).
 */
export async function* readCsv(path: string, signal?: AbortSignal): AsyncGenerator<RowResult> {
  let header: string[] | undefined;
  let row = 0;
  for await (const record of readCsvRecords(path, signal)) {
    if ('error' in record) {
      if (!header) throw unreadable(path, `the CSV header is broken: ${record.error}`);
      yield { row: ++row, error: record.error, raw: record.raw };
      continue;
    }
    const { fields, raw } = record;
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
        raw,
      };
      continue;
    }
    const { value, text } = readCells(header, fields);
    yield text ? { row, value, text, raw } : { row, value, raw };
  }
}

/**
 * A record's cells by column name, read by the rule in `csv-cells.ts`, and every
 * cell's text as well when one was read as other than its text. The objects
 * are filled key by key: several times faster than `Object.fromEntries`, on
 * every row of a million-row file.
 */
function readCells(
  header: readonly string[],
  fields: readonly string[],
): { value: Record<string, unknown>; text?: Record<string, string> } {
  const value: Record<string, unknown> = {};
  let decodedAny = false;
  let i = 0;
  for (const name of header) {
    const cell = fields[i++] ?? '';
    const decoded = decodeCell(cell);
    if (decoded !== cell) decodedAny = true;
    setCell(value, name, decoded);
  }
  if (!decodedAny) return { value };
  const text: Record<string, string> = {};
  header.forEach((name, i) => setCell(text, name, fields[i] ?? ''));
  return { value, text };
}

/** `object[name] = cell`, also for a column named `__proto__` (an assignment would set the prototype). */
function setCell(object: Record<string, unknown>, name: string, cell: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(object, name, {
      value: cell,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    object[name] = cell;
  }
}
