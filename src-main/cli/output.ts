import { createWriteStream, openSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { AppError } from '../../src-shared/errors.ts';
import { fsProblem, tempFileBeside } from '../files/index.ts';

/** Where JSONL results go: a file (written beside it, then renamed into place) or stdout. */
export interface JsonlSink {
  write(value: unknown): Promise<void>;
  /**
   * Lines already written as JSON (each ending in a newline), as UTF-8, as
   * they are. `written` is called once they are out of the caller's bytes
   * (written to the file or stdout): only then may those bytes be reused.
   */
  writeBytes(bytes: Uint8Array, written?: () => void): Promise<void>;
  close(): Promise<void>;
  /** Leaves no file behind (a run that failed); stdout keeps what it got. */
  discard(): Promise<void>;
}

async function writeWithBackpressure(
  stream: NodeJS.WritableStream,
  line: string | Uint8Array,
  written?: () => void,
): Promise<void> {
  // A failed write is the stream's 'error' (the run fails there): the callback only frees bytes.
  if (!stream.write(line, () => written?.())) await once(stream, 'drain');
}

export function openJsonlSink(path: string | undefined): JsonlSink {
  if (path === undefined) {
    return {
      write: (value) => writeWithBackpressure(process.stdout, `${JSON.stringify(value)}\n`),
      writeBytes: (bytes, written) => writeWithBackpressure(process.stdout, bytes, written),
      close: () => Promise.resolve(),
      discard: () => Promise.resolve(),
    };
  }
  // One writer per run: the plain `<path>.partial`, which a rerun overwrites.
  const partial = tempFileBeside(path, { unique: false });
  // Opened now, so that a missing folder or a denied write is said before any work, in words.
  let fd: number;
  try {
    fd = openSync(partial.path, 'w');
  } catch (error) {
    throw new AppError(
      'invalid_request',
      `cannot write ${path}: ${fsProblem(error)} (is the folder ${dirname(path)} there and writable?)`,
      { cause: error },
    );
  }
  const stream: WriteStream = createWriteStream('', { fd });
  return {
    write: (value) => writeWithBackpressure(stream, `${JSON.stringify(value)}\n`),
    writeBytes: (bytes, written) => writeWithBackpressure(stream, bytes, written),
    close: async () => {
      stream.end();
      await once(stream, 'finish');
      await partial.commit();
    },
    discard: async () => {
      // Writes still queued fail once it is destroyed: expected, not worth an uncaught error.
      stream.on('error', () => undefined);
      // Closed already (a close whose rename failed): its 'close' came and would not come again.
      if (!stream.closed) {
        const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
        stream.destroy();
        await closed;
      }
      await partial.discard();
    },
  };
}
