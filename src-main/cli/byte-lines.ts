import { open, type FileHandle } from 'node:fs/promises';

/** A line of a file: where it is, and its bytes (valid until the next line is asked for). */
export interface ByteLine {
  /** Byte offset of its first byte in the file. */
  start: number;
  /** Its length without the line end (`\n` or `\r\n`). */
  length: number;
  /** Where the next line starts. */
  end: number;
  bytes: Buffer;
}

/** What a file's lines are read in, unless said otherwise. */
export const DEFAULT_BUFFER_BYTES = 1 << 16;

/**
 * A file's lines as bytes, in one buffer reused from line to line: the
 * thread reading never decodes a line it only needs to find (the rows of a
 * shard's part go to the workers by their byte range), and allocates nothing
 * per line.
 */
export class ByteLines {
  readonly #handle: FileHandle;
  #buffer: Buffer;
  /** Unread bytes are buffer[begin, filled); buffer[0] is at file offset `offset`. */
  #begin = 0;
  #filled = 0;
  #offset = 0;
  #eof = false;

  private constructor(handle: FileHandle, bufferBytes: number) {
    this.#handle = handle;
    this.#buffer = Buffer.allocUnsafe(bufferBytes);
  }

  /** `bufferBytes`: how much is read at once (a longer line grows the buffer). */
  static async open(path: string, bufferBytes = DEFAULT_BUFFER_BYTES): Promise<ByteLines> {
    return new ByteLines(await open(path, 'r'), bufferBytes);
  }

  close(): Promise<void> {
    return this.#handle.close();
  }

  /** The next line, or undefined at the end of the file. */
  async next(): Promise<ByteLine | undefined> {
    for (;;) {
      const line = this.nextRead();
      if (line !== null) return line;
      await this.#fill();
    }
  }

  /**
   * The next line if what is read holds it (undefined at the end of the
   * file), or null: `next()` then, which reads on. A reader of many lines
   * takes most of them here, without a promise each.
   */
  nextRead(): ByteLine | undefined | null {
    const at = this.#buffer.indexOf(10, this.#begin);
    if (at !== -1 && at < this.#filled) return this.#take(at, at + 1);
    if (this.#eof) {
      return this.#begin < this.#filled ? this.#take(this.#filled, this.#filled) : undefined;
    }
    return null;
  }

  #take(lineEnd: number, next: number): ByteLine {
    const begin = this.#begin;
    const crlf = lineEnd > begin && this.#buffer[lineEnd - 1] === 13 && next > lineEnd;
    const stop = crlf ? lineEnd - 1 : lineEnd;
    this.#begin = next;
    return {
      start: this.#offset + begin,
      length: stop - begin,
      end: this.#offset + next,
      bytes: this.#buffer.subarray(begin, stop),
    };
  }

  async #fill(): Promise<void> {
    // The unread bytes move to the buffer's start; a line longer than the buffer doubles it.
    if (this.#begin > 0) {
      this.#buffer.copy(this.#buffer, 0, this.#begin, this.#filled);
      this.#offset += this.#begin;
      this.#filled -= this.#begin;
      this.#begin = 0;
    }
    if (this.#filled === this.#buffer.length) {
      const larger = Buffer.allocUnsafe(2 * this.#buffer.length);
      this.#buffer.copy(larger, 0, 0, this.#filled);
      this.#buffer = larger;
    }
    const { bytesRead } = await this.#handle.read(
      this.#buffer,
      this.#filled,
      this.#buffer.length - this.#filled,
      this.#offset + this.#filled,
    );
    if (bytesRead === 0) this.#eof = true;
    else this.#filled += bytesRead;
  }
}
