import { open, stat } from 'node:fs/promises';
import { fsProblem, unreadable } from '../errors.ts';

const SNIFF_BYTES = 8192;

/** The size and first bytes of a regular file; an AppError naming it when it cannot be read. */
export async function sniff(
  path: string,
  bytes = SNIFF_BYTES,
): Promise<{ head: Buffer; size: number }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
    const handle = await open(path, 'r');
    try {
      const head = Buffer.alloc(Math.min(bytes, info.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return { head: head.subarray(0, bytesRead), size: info.size };
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw unreadable(path, fsProblem(error), error);
  }
}

/**
 * The first `bytes` of a text file and its size. Text formats must be UTF-8:
 * a NUL byte in the first 8 KiB means binary data (or UTF-16).
 */
export async function sniffText(
  path: string,
  what: string,
  bytes = SNIFF_BYTES,
): Promise<{ head: Buffer; size: number }> {
  const sniffed = await sniff(path, Math.max(bytes, SNIFF_BYTES));
  if (sniffed.head.subarray(0, SNIFF_BYTES).includes(0))
    throw unreadable(path, `not ${what} (it holds binary data, or is not UTF-8)`);
  return { head: sniffed.head.subarray(0, bytes), size: sniffed.size };
}
