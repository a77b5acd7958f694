import { AppError } from '../../src-shared/errors.ts';
import { PART_FORMAT, PartHeader, PartTrailer, type PartTrailer as Trailer } from './shard.ts';
import type { PartRowValue } from '../service/file-pass/part-rows.ts';
import { ByteLines, type ByteLine } from './byte-lines.ts';
import { parseJsonExact } from '../../src-shared/exact-json.ts';

export type { PartRowValue };

/** A row of a part, by where its line is (see `PartReader.nextLine`). */
export interface PartLine {
  position: number;
  /** The byte offset of its line in the part, and where the next line starts. */
  start: number;
  end: number;
  /** Its 1-based line number in the part. */
  lineNumber: number;
}

const ROW_START = Buffer.from('{"position":');
const COMMA = 0x2c;
const ZERO = 0x30;

/**
 * The position a row line starts with, as the part writer writes it (read
 * from its bytes: the line is never decoded here); undefined otherwise.
 */
function positionOf(bytes: Buffer): number | undefined {
  if (bytes.length <= ROW_START.length || !bytes.subarray(0, ROW_START.length).equals(ROW_START)) {
    return undefined;
  }
  let position = 0;
  let at = ROW_START.length;
  const first = at;
  for (; at < bytes.length && bytes[at] !== COMMA; at++) {
    const digit = (bytes[at] as number) - ZERO;
    if (digit < 0 || digit > 9 || at - first >= 16) return undefined;
    if (digit === 0 && at === first && bytes[at + 1] !== COMMA) return undefined; // no leading 0
    position = position * 10 + digit;
  }
  if (at === first || at === bytes.length) return undefined;
  return Number.isSafeInteger(position) ? position : undefined;
}

const invalid = (message: string): AppError => new AppError('invalid_request', message);

/**
 * A part written by `svc audit|fix|refine --shard`, read line by line (never
 * whole: a part can hold millions of rows): its header, then its rows in
 * position order, then its trailer, which a finished shard always writes.
 */
export class PartReader {
  readonly path: string;
  readonly header: PartHeader;
  trailer: Trailer | undefined;
  readonly #lines: ByteLines;
  #line = 1;
  #last = -1;
  /** A trailer read by `nextLineRead`: `nextLine` checks that no line follows it. */
  #trailerRead = false;

  private constructor(path: string, header: PartHeader, lines: ByteLines) {
    this.path = path;
    this.header = header;
    this.#lines = lines;
  }

  /** Stops reading (a merge that failed). */
  close(): void {
    void this.#lines.close().catch(() => undefined); // closed twice after a failure: nothing to do
  }

  /** `bufferBytes`: how much of the part is read at once (ByteLines). */
  static async open(path: string, bufferBytes?: number): Promise<PartReader> {
    let lines: ByteLines;
    try {
      lines = await ByteLines.open(path, bufferBytes);
    } catch (error) {
      throw invalid(`cannot read the part ${path}: ${(error as Error).message}`);
    }
    const first = await lines.next();
    const value = first ? parseLine(textOf(first)) : undefined;
    const parsed = PartHeader.safeParse(value);
    if (!parsed.success) {
      await lines.close();
      const format = (value as { svc_part?: unknown } | undefined)?.svc_part;
      if (typeof format === 'number' && format !== PART_FORMAT) {
        throw invalid(
          `${path} is a part of format ${format}, written by another version of svc (this one ` +
            `merges format ${PART_FORMAT}): run its shards again with this version`,
        );
      }
      throw invalid(
        `${path} is not a part written by svc audit|fix|refine --shard I/N (its first line is not a part header)`,
      );
    }
    return new PartReader(path, parsed.data, lines);
  }

  /** The shard as people name it: `shard 2/4 (part-2.jsonl)`. */
  get name(): string {
    return `shard ${this.header.shard}/${this.header.of} (${this.path})`;
  }

  /**
   * The next row, by where its line is, with its position, or undefined once
   * the trailer is read. A row line starts `{"position":N,` as the part
   * writer writes it, so the position is read without decoding or parsing
   * the row (that, and checking its fields, is the merge's workers' job:
   * `checkPartRow`).
   */
  async nextLine(): Promise<PartLine | undefined> {
    if (this.#trailerRead) {
      // Read by `nextLineRead`, which cannot wait to see that nothing follows it.
      this.#trailerRead = false;
      return this.#afterTrailer();
    }
    if (this.trailer) return undefined;
    const line = this.#accept(await this.#lines.next());
    return line === 'trailer' ? this.#afterTrailer() : line;
  }

  /**
   * `nextLine` where the part's reader already holds the line, without a
   * promise (most rows of a part); null: call `nextLine` instead.
   */
  nextLineRead(): PartLine | undefined | null {
    if (this.#trailerRead) return null;
    if (this.trailer) return undefined;
    const next = this.#lines.nextRead();
    if (next === null) return null;
    const line = this.#accept(next);
    if (line !== 'trailer') return line;
    this.#trailerRead = true;
    return null;
  }

  async #afterTrailer(): Promise<undefined> {
    if ((await this.#lines.next()) !== undefined) throw this.#bad('lines follow its trailer');
    return undefined;
  }

  /** The line read next, as a row (or the trailer, kept in `trailer`). */
  #accept(next: ByteLine | undefined): PartLine | 'trailer' {
    this.#line++;
    if (!next) {
      throw invalid(
        `${this.name} ends without its trailer: the shard did not finish (run it again)`,
      );
    }
    let position = positionOf(next.bytes);
    if (position === undefined) {
      const value = parseLine(textOf(next)) as Record<string, unknown> | undefined;
      if (value?.svc_part_end !== undefined) {
        const trailer = PartTrailer.safeParse(value);
        if (!trailer.success) throw this.#bad('its trailer is not one svc writes');
        this.trailer = trailer.data;
        return 'trailer';
      }
      position = value?.position as number;
      if (!Number.isSafeInteger(position)) {
        throw this.#bad('a line is not a row {position, source_row, sample}');
      }
    }
    if (position <= this.#last) throw this.#bad('its rows are not in position order');
    this.#last = position;
    return { position, start: next.start, end: next.end, lineNumber: this.#line };
  }

  /** What a row failing `checkPartRow` is told as. */
  bad(lineNumber: number, what: string): AppError {
    return invalid(`${this.name}, line ${lineNumber}: ${what}`);
  }

  #bad(what: string): AppError {
    return invalid(`${this.name}, line ${this.#line}: ${what}`);
  }
}

const textOf = (line: ByteLine): string => line.bytes.toString('utf8');

function parseLine(line: string): unknown {
  try {
    return parseJsonExact(line);
  } catch {
    return undefined;
  }
}
