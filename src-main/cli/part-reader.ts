import { createReadStream, type ReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { AppError } from '../../src-shared/errors.ts';
import { PartHeader, PartTrailer, type PartTrailer as Trailer } from './shard.ts';
import type { PartRowValue } from '../service/file-pass/part-rows.ts';

export type { PartRowValue };

/** A row of a part as its line (see `PartReader.nextLine`). */
export interface PartLine {
  position: number;
  line: string;
  /** Its 1-based line number in the part. */
  lineNumber: number;
}

const ROW_START = '{"position":';

/** The position a row line starts with, as the part writer writes it; undefined otherwise. */
function positionOf(line: string): number | undefined {
  if (!line.startsWith(ROW_START)) return undefined;
  const end = line.indexOf(',', ROW_START.length);
  if (end < 0) return undefined;
  const digits = line.slice(ROW_START.length, end);
  if (!/^(0|[1-9]\d{0,15})$/.test(digits)) return undefined;
  const position = Number(digits);
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
  readonly #lines: AsyncIterator<string>;
  readonly #stream: ReadStream;
  #line = 1;
  #last = -1;

  private constructor(
    path: string,
    header: PartHeader,
    lines: AsyncIterator<string>,
    stream: ReadStream,
  ) {
    this.path = path;
    this.header = header;
    this.#lines = lines;
    this.#stream = stream;
  }

  /** Stops reading (a merge that failed). */
  close(): void {
    this.#stream.destroy();
  }

  static async open(path: string): Promise<PartReader> {
    const stream = createReadStream(path);
    const opened = new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    try {
      await opened;
    } catch (error) {
      throw invalid(`cannot read the part ${path}: ${(error as Error).message}`);
    }
    const lines = createInterface({ input: stream, crlfDelay: Infinity })[Symbol.asyncIterator]();
    const first = await lines.next();
    const parsed = first.done ? undefined : PartHeader.safeParse(parseLine(first.value));
    if (!parsed?.success) {
      stream.destroy();
      throw invalid(
        `${path} is not a part written by svc audit|fix|refine --shard I/N (its first line is not a part header)`,
      );
    }
    return new PartReader(path, parsed.data, lines, stream);
  }

  /** The shard as people name it: `shard 2/4 (part-2.jsonl)`. */
  get name(): string {
    return `shard ${this.header.shard}/${this.header.of} (${this.path})`;
  }

  /**
   * The next row as its line, with its position, or undefined once the
   * trailer is read. A row line starts `{"position":N,` as the part writer
   * writes it, so the position is read without parsing the row (that, and
   * checking its fields, is the merge's workers' job: `checkPartRow`).
   */
  async nextLine(): Promise<PartLine | undefined> {
    if (this.trailer) return undefined;
    const next = await this.#lines.next();
    this.#line++;
    if (next.done) {
      throw invalid(
        `${this.name} ends without its trailer: the shard did not finish (run it again)`,
      );
    }
    const line = next.value;
    let position = positionOf(line);
    if (position === undefined) {
      const value = parseLine(line) as Record<string, unknown> | undefined;
      if (value?.svc_part_end !== undefined) {
        const trailer = PartTrailer.safeParse(value);
        if (!trailer.success) throw this.#bad('its trailer is not one svc writes');
        this.trailer = trailer.data;
        if ((await this.#lines.next()).done !== true) throw this.#bad('lines follow its trailer');
        return undefined;
      }
      position = value?.position as number;
      if (!Number.isSafeInteger(position)) {
        throw this.#bad('a line is not a row {position, source_row, sample}');
      }
    }
    if (position <= this.#last) throw this.#bad('its rows are not in position order');
    this.#last = position;
    return { position, line, lineNumber: this.#line };
  }

  /** What a row failing `checkPartRow` is told as. */
  bad(lineNumber: number, what: string): AppError {
    return invalid(`${this.name}, line ${lineNumber}: ${what}`);
  }

  #bad(what: string): AppError {
    return invalid(`${this.name}, line ${this.#line}: ${what}`);
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
