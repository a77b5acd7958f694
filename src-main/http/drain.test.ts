import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/db.ts';
import { createServiceContext } from '../service/context/service-context.ts';
import { MAX_BODY_BYTES } from './app.ts';
import { type RunningServer, startServer } from './server.ts';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

interface Exchange {
  /** The status line the client read, if any. */
  status: string | undefined;
  /** The socket error the client met while sending, if any (EPIPE, ECONNRESET). */
  error: string | undefined;
}

/**
 * Sends a body of `size` bytes in 64 KiB pieces, 2 ms apart (about 30 MB/s,
 * slower than loopback but an ordinary pace for a client on a network),
 * declared by length or chunked, and reads what comes back.
 */
function slowPost(port: number, path: string, size: number, chunked: boolean): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let error: string | undefined;
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code));
    socket.on('close', () => {
      const status = received.startsWith('HTTP/1.1') ? received.split('\r\n')[0] : undefined;
      resolve({ status, error });
    });
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Authorization: Bearer svc_unknown\r\n${framing}\r\nConnection: close\r\n\r\n`,
    );
    const piece = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const next = (): void => {
      if (socket.destroyed) return;
      if (sent >= size) {
        if (chunked) socket.write('0\r\n\r\n');
        return;
      }
      const data = piece.subarray(0, Math.min(piece.length, size - sent));
      sent += data.length;
      socket.write(
        chunked
          ? Buffer.concat([
              Buffer.from(`${data.length.toString(16)}\r\n`),
              data,
              Buffer.from('\r\n'),
            ])
          : data,
      );
      setTimeout(next, 2);
    };
    next();
  });
}

describe('a refused body', () => {
  it('is answered, and the answer read, while a client is still sending it', async () => {
    const ctx = createServiceContext(openDatabase(':memory:'), ':memory:', 'test');
    running = await startServer({ ctx, host: '127.0.0.1', port: 0, rendererDir: null });
    const port = running.port;
    // 1 MB of malformed JSON to a path with no route, and to a route refusing the key.
    expect(await slowPost(port, '/', 1_000_000, false)).toEqual({
      status: 'HTTP/1.1 404 Not Found',
      error: undefined,
    });
    expect(await slowPost(port, '/audit', 1_000_000, true)).toEqual({
      status: 'HTTP/1.1 401 Unauthorized',
      error: undefined,
    });
  });

  it('past the size limit is answered 413 before the connection closes', async () => {
    const ctx = createServiceContext(openDatabase(':memory:'), ':memory:', 'test');
    running = await startServer({ ctx, host: '127.0.0.1', port: 0, rendererDir: null });
    const declared = await slowPost(
      running.port,
      '/v1/chat/completions',
      MAX_BODY_BYTES + 1,
      false,
    );
    expect(declared.status).toBe('HTTP/1.1 413 Payload Too Large');
    const chunked = await slowPost(running.port, '/audit', MAX_BODY_BYTES + 4 * 1024 * 1024, true);
    expect(chunked.status).toBe('HTTP/1.1 413 Payload Too Large');
    expect(chunked.error).toBeUndefined();
  }, 60_000);
});
