import { checkSignal, unreadable } from '../errors.ts';
import { readLineBatches } from './lines.ts';
import { toRow, type RowResult } from './row-result.ts';
import { sniffText } from './sniff.ts';

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
