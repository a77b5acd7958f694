import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Writes text chunks to a file as they come, waiting while the disk catches up. */
export async function writeText(path: string, chunks: AsyncIterable<string>): Promise<void> {
  await pipeline(Readable.from(chunks), createWriteStream(path));
}
