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

/**
 * The file's slices, by where they are (a worker reads each: `readSlice`).
 * One buffer serves the whole file: this thread allocates nothing per slice
 * (a new buffer per slice, and the copies to send, made the GC run a full
 * collection a dozen times per 100,000 rows).
 */
export async function* lineSlices(
  path: string,
  signal?: AbortSignal,
  target = sliceBytes(),
): AsyncGenerator<LineSlice> {
  const handle = await open(path, 'r');
  try {
    let buffer = Buffer.allocUnsafe(2 * target);
    let carried = 0; // bytes of a line not yet ended, at the buffer's start
    let offset = 0; // of the buffer's first byte in the file
    let line = 1;
    for (;;) {
      if (signal?.aborted) throw cancelled();
      if (buffer.length - carried < target) {
        // A line longer than a slice so far: room for it to go on.
        const larger = Buffer.allocUnsafe(2 * buffer.length);
        buffer.copy(larger, 0, 0, carried);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, carried, target, offset + carried);
      if (bytesRead === 0) {
        // The last line has no line end.
        if (carried > 0) yield { start: offset, length: carried, firstLine: line };
        return;
      }
      const filled = carried + bytesRead;
      const end = filled === 0 ? 0 : buffer.lastIndexOf(10, filled - 1) + 1;
      if (end === 0) {
        carried = filled; // no line end yet: read on
        continue;
      }
      const slice = { start: offset, length: end, firstLine: line };
      line += countLines(buffer.subarray(0, end));
      buffer.copy(buffer, 0, end, filled);
      carried = filled - end;
      offset += end;
      yield slice;
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
