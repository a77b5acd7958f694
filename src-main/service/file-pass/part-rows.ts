import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/**
 * The rows of a shard's part (`svc audit|fix|refine --shard`) as `svc merge`
 * checks them: the merge's main thread orders the lines by position, and the
 * workers parse and check each (`checkPartRow`) before adding the dataset
 * checks' verdicts.
 */

/** One output row of a part. */
export interface PartRowValue {
  position: number;
  source_row: number;
  sample: Record<string, unknown>;
}

function parseLine(line: string): unknown {
  try {
    return parseJsonExact(line);
  } catch {
    return undefined;
  }
}

/**
 * A row line parsed and checked: what the part must hold at that line (a
 * position, a source row of its shard, a sample), or why not.
 */
export function checkPartRow(
  line: string,
  shard: { shard: number; of: number },
): PartRowValue | { error: string } {
  const value = parseLine(line) as Record<string, unknown> | undefined;
  const { position, source_row, sample } = value ?? {};
  if (
    !Number.isSafeInteger(position) ||
    !Number.isSafeInteger(source_row) ||
    typeof sample !== 'object' ||
    sample === null
  ) {
    return { error: 'a line is not a row {position, source_row, sample}' };
  }
  if (((source_row as number) - 1) % shard.of !== shard.shard) {
    return { error: `source row ${source_row as number} belongs to another shard` };
  }
  return { position, source_row, sample } as PartRowValue;
}

const POSITION = Buffer.from('{"position":');
const SOURCE_ROW = Buffer.from(',"source_row":');
const SAMPLE = Buffer.from(',"sample":');
const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/** The row line's parts, read from its bytes (see `splitPartRow`). */
export interface PartRowBytes {
  position: number;
  source_row: number;
  /** Where the sample's JSON object starts and ends in the line. */
  sampleStart: number;
  sampleEnd: number;
}

/** A decimal integer of `bytes` from `at` up to `stop` (exclusive), or -1. */
function integerAt(bytes: Uint8Array, at: number, stop: number): number {
  if (stop <= at || stop - at > 15 || (bytes[at] === 0x30 && stop - at > 1)) return -1;
  let value = 0;
  for (let i = at; i < stop; i++) {
    const digit = (bytes[i] as number) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Where the decimal digits from `at` end (at most `stop`). */
function digitsEnd(bytes: Uint8Array, at: number, stop: number): number {
  let i = at;
  while (i < stop && (bytes[i] as number) >= 0x30 && (bytes[i] as number) <= 0x39) i++;
  return i;
}

/** Whether `bytes[at, at + prefix.length)` is `prefix`, within `stop`. */
function startsWithAt(bytes: Uint8Array, at: number, stop: number, prefix: Uint8Array): boolean {
  if (stop - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/**
 * A row line as the part writer writes it, `{"position":P,"source_row":S,
 * "sample":{...}}`, cut at its bytes without decoding or parsing the sample:
 * most rows of a merge go to the output as their sample's bytes. Undefined
 * for any other line (the merge then parses it, and says what is wrong).
 */
export function splitPartRow(line: Uint8Array): PartRowBytes | undefined {
  return splitPartRowAt(Buffer.from(line.buffer, line.byteOffset, line.byteLength), 0, line.length);
}

/**
 * `splitPartRow` of the line `bytes[start, end)` of a larger buffer (a
 * merge batch's lines, one after another), its offsets into that buffer: no
 * view is made per line, where one per line (and one per check of it) was a
 * tenth of the merge's work on its workers.
 */
export function splitPartRowAt(
  bytes: Buffer,
  start: number,
  end: number,
): PartRowBytes | undefined {
  // The writer puts each marker right after the digits before it: looked for there only, so a
  // line without one is never searched past its end (into the batch's later lines).
  if (!startsWithAt(bytes, start, end, POSITION)) return undefined;
  const positionEnd = digitsEnd(bytes, start + POSITION.length, end);
  if (!startsWithAt(bytes, positionEnd, end, SOURCE_ROW)) return undefined;
  const position = integerAt(bytes, start + POSITION.length, positionEnd);
  const rowStart = positionEnd + SOURCE_ROW.length;
  const rowEnd = digitsEnd(bytes, rowStart, end);
  if (position < 0 || !startsWithAt(bytes, rowEnd, end, SAMPLE)) return undefined;
  const sourceRow = integerAt(bytes, rowStart, rowEnd);
  const sampleStart = rowEnd + SAMPLE.length;
  const sampleEnd = end - 1; // the row's own closing brace
  if (
    sourceRow < 0 ||
    sampleEnd <= sampleStart + 1 ||
    bytes[sampleStart] !== OPEN ||
    bytes[sampleEnd - 1] !== CLOSE ||
    bytes[sampleEnd] !== CLOSE
  ) {
    return undefined;
  }
  return { position, source_row: sourceRow, sampleStart, sampleEnd };
}
