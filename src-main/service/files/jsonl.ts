import { createReadStream } from 'node:fs';
import { checkSignal, readFailure, unreadable } from './errors.ts';
import { toRow, type RowResult } from './rows.ts';
import { sniffText } from './source.ts';

/** A file that starts with this many unparsable lines (and no good one) is not JSON Lines. */
const LEADING_FAILURES_MAX = 10;

/**
 * The lines of a UTF-8 file with their 1-based numbers, streamed chunk by
 * chunk (a BOM and `\r` line ends are dropped).
 */
export async function* readLines(
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<{ line: number; text: string }> {
  const stream = createReadStream(path, { encoding: 'utf8', signal });
  let pending = '';
  let line = 0;
  const emit = (text: string): { line: number; text: string } => {
    line++;
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    return { line, text: line === 1 && trimmed.startsWith('\ufeff') ? trimmed.slice(1) : trimmed };
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      pending += chunk;
      let start = 0;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
        yield emit(pending.slice(start, end));
        start = end + 1;
      }
      pending = pending.slice(start);
    }
    if (pending !== '') yield emit(pending);
  } catch (error) {
    throw readFailure(path, error, signal);
  } finally {
    stream.destroy();
  }
}

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
  checkSignal(path, signal);
  await sniffText(path, what);
  let leading: RowResult[] | undefined = [];
  for await (const { line, text } of readLines(path, signal)) {
    if (text.trim() === '') continue;
    let result: RowResult;
    try {
      // The line itself rides along: an unchanged row is written back byte for byte.
      result = toRow(line, JSON.parse(text), text);
    } catch (error) {
      result = { row: line, error: `invalid JSON: ${(error as Error).message}`, raw: text };
      if (leading) {
        leading.push(result);
        if (leading.length >= LEADING_FAILURES_MAX) throw notJsonLines(path, what, leading);
        continue;
      }
    }
    if (leading) {
      for (const earlier of leading) {
        checkSignal(path, signal);
        yield earlier;
      }
      leading = undefined;
    }
    checkSignal(path, signal);
    yield result;
  }
  if (leading && leading.length > 0) throw notJsonLines(path, what, leading);
}

function notJsonLines(path: string, what: string, failures: RowResult[]): Error {
  const first = failures[0];
  const detail = first && 'error' in first ? ` (line ${first.row}: ${first.error})` : '';
  return unreadable(path, `not ${what}${detail}`);
}
