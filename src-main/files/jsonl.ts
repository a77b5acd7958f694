import { createReadStream } from 'node:fs';
import { checkSignal, readFailure, unreadable } from './errors.ts';
import { toRow, type RowResult } from './rows.ts';
import { sniffText } from './source.ts';

/** A file that starts with this many unparsable lines (and no good one) is not JSON Lines. */
const LEADING_FAILURES_MAX = 10;

/** Bytes read per step: a batch of lines is what one read brings in. */
const CHUNK_BYTES = 1 << 18;

/**
 * The lines of a UTF-8 file with their 1-based numbers, streamed a chunk at a
 * time (a BOM and `\r` line ends are dropped): one array per read, so the
 * caller's work per line is a plain loop, not a generator step.
 */
export async function* readLineBatches(
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<{ first: number; texts: string[] }> {
  const stream = createReadStream(path, { encoding: 'utf8', signal, highWaterMark: CHUNK_BYTES });
  let pending = '';
  let line = 0;
  const clean = (text: string): string => {
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    return line === 0 && trimmed.startsWith('\ufeff') ? trimmed.slice(1) : trimmed;
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      pending += chunk;
      const first = line + 1;
      const texts: string[] = [];
      let start = 0;
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n', start)) {
        texts.push(clean(pending.slice(start, end)));
        line++;
        start = end + 1;
      }
      pending = pending.slice(start);
      if (texts.length > 0) yield { first, texts };
    }
    if (pending !== '') {
      const first = line + 1;
      const texts = [clean(pending)];
      line++;
      yield { first, texts };
    }
  } catch (error) {
    throw readFailure(path, error, signal);
  } finally {
    stream.destroy();
  }
}

/** The lines of a UTF-8 file with their 1-based numbers, one at a time. */
export async function* readLines(
  path: string,
  signal?: AbortSignal,
): AsyncGenerator<{ line: number; text: string }> {
  for await (const { first, texts } of readLineBatches(path, signal)) {
    for (let i = 0; i < texts.length; i++) yield { line: first + i, text: texts[i] as string };
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
      const text = texts[i] as string;
      const line = first + i;
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

function notJsonLines(path: string, what: string, failures: RowResult[]): Error {
  const first = failures[0];
  const detail = first && 'error' in first ? ` (line ${first.row}: ${first.error})` : '';
  return unreadable(path, `not ${what}${detail}`);
}
