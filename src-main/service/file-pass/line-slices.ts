import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { AppError } from '../../../src-shared/errors.ts';

/**
 * A file of lines cut into slices of whole lines, for the engine's workers
 * to parse: the thread that cuts only reads bytes and looks for line ends
 * (memchr), never decodes or parses a row. A worker reads its slice by its
 * byte range (readSlice): the bytes are never copied from thread to thread.
 */

/** Bytes per slice: ~500 rows of a typical dataset, tens of ms of a worker's time. */
export const SLICE_BYTES = 1 << 18;

/**
 * The slice size in force: SVC_FILE_PASS_SLICE_BYTES when set (tests cut
 * small files into many slices with it), else SLICE_BYTES. Results never
 * depend on it.
 */
export function sliceBytes(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SVC_FILE_PASS_SLICE_BYTES);
  return Number.isInteger(n) && n >= 1 ? n : SLICE_BYTES;
}

export interface LineSlice {
  /** Byte offset and length in the file. */
  start: number;
  length: number;
  /** The 1-based number of its first line. */
  firstLine: number;
}

const cancelled = (): AppError => new AppError('cancelled', 'the run was cancelled');

/** The file's slices, each with its bytes (a copy of its own, safe to send to a worker). */
export async function* readLineSlices(
  path: string,
  signal?: AbortSignal,
  target = sliceBytes(),
): AsyncGenerator<{ slice: LineSlice; bytes: Buffer }> {
  const handle = await open(path, 'r');
  try {
    let carry = Buffer.alloc(0);
    let offset = 0; // of carry's first byte in the file
    let line = 1;
    for (;;) {
      if (signal?.aborted) throw cancelled();
      const chunk = Buffer.allocUnsafe(target);
      const { bytesRead } = await handle.read(chunk, 0, target, offset + carry.length);
      if (bytesRead === 0) {
        // The last line has no line end.
        if (carry.length > 0) {
          yield { slice: { start: offset, length: carry.length, firstLine: line }, bytes: carry };
        }
        return;
      }
      const data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const end = data.lastIndexOf(10) + 1;
      if (end === 0) {
        carry = data; // a line longer than a slice so far: read on
        continue;
      }
      const bytes = Buffer.from(data.subarray(0, end));
      yield { slice: { start: offset, length: end, firstLine: line }, bytes };
      line += countLines(bytes);
      carry = Buffer.from(data.subarray(end));
      offset += end;
    }
  } finally {
    await handle.close();
  }
}

/** Lines in bytes cut at a line end (the file's last may have none). */
function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

/**
 * A slice's bytes, read where they are needed (a worker; every pass reads
 * them again rather than keep the file). Synchronous: a worker has nothing
 * else to do meanwhile.
 */
export function readSlice(path: string, slice: Pick<LineSlice, 'start' | 'length'>): Buffer {
  const bytes = Buffer.allocUnsafe(slice.length);
  const fd = openSync(path, 'r');
  try {
    let at = 0;
    while (at < slice.length) {
      const read = readSync(fd, bytes, at, slice.length - at, slice.start + at);
      if (read === 0) throw new AppError('invalid_request', 'the input file shrank during the run');
      at += read;
    }
  } finally {
    closeSync(fd);
  }
  return bytes;
}
