import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';

/** Where JSONL results go: a file (written beside it, then renamed into place) or stdout. */
export interface JsonlSink {
  write(value: unknown): Promise<void>;
  close(): Promise<void>;
  /** Leaves no file behind (a run that failed); stdout keeps what it got. */
  discard(): Promise<void>;
}

async function writeWithBackpressure(stream: NodeJS.WritableStream, line: string): Promise<void> {
  if (!stream.write(line)) await once(stream, 'drain');
}

export function openJsonlSink(path: string | undefined): JsonlSink {
  if (path === undefined) {
    return {
      write: (value) => writeWithBackpressure(process.stdout, `${JSON.stringify(value)}\n`),
      close: () => Promise.resolve(),
      discard: () => Promise.resolve(),
    };
  }
  const partial = `${path}.partial`;
  const stream: WriteStream = createWriteStream(partial);
  return {
    write: (value) => writeWithBackpressure(stream, `${JSON.stringify(value)}\n`),
    close: async () => {
      stream.end();
      await once(stream, 'finish');
      renameSync(partial, path);
    },
    discard: async () => {
      // Writes still queued fail once it is destroyed: expected, not worth an uncaught error.
      stream.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
      stream.destroy();
      await closed;
      rmSync(partial, { force: true });
    },
  };
}
