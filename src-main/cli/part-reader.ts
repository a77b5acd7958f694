import { createReadStream, type ReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { AppError } from '../../src-shared/errors.ts';
import { PartHeader, PartTrailer, type PartTrailer as Trailer } from './shard.ts';

/** One output row of a part, as `svc merge` reads it. */
export interface PartRowValue {
  position: number;
  source_row: number;
  sample: Record<string, unknown>;
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

  /** The next row, or undefined once the trailer is read. */
  async next(): Promise<PartRowValue | undefined> {
    if (this.trailer) return undefined;
    const next = await this.#lines.next();
    this.#line++;
    if (next.done) {
      throw invalid(
        `${this.name} ends without its trailer: the shard did not finish (run it again)`,
      );
    }
    const value = parseLine(next.value) as Record<string, unknown> | undefined;
    if (value?.svc_part_end !== undefined) {
      const trailer = PartTrailer.safeParse(value);
      if (!trailer.success) throw this.#bad('its trailer is not one svc writes');
      this.trailer = trailer.data;
      if ((await this.#lines.next()).done !== true) throw this.#bad('lines follow its trailer');
      return undefined;
    }
    const { position, source_row, sample } = value ?? {};
    if (
      !Number.isSafeInteger(position) ||
      !Number.isSafeInteger(source_row) ||
      typeof sample !== 'object' ||
      sample === null
    ) {
      throw this.#bad('a line is not a row {position, source_row, sample}');
    }
    const row = { position, source_row, sample } as PartRowValue;
    if (row.position <= this.#last) throw this.#bad('its rows are not in position order');
    if ((row.source_row - 1) % this.header.of !== this.header.shard) {
      throw this.#bad(`source row ${row.source_row} belongs to another shard`);
    }
    this.#last = row.position;
    return row;
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
