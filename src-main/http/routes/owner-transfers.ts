import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import { AppError } from '../../../src-shared/errors.ts';
import {
  OWNER_DOWNLOAD_PATH,
  OWNER_EVENTS_PATH,
  OWNER_UPLOAD_PATH,
  type OwnerEvent,
} from '../../../src-shared/owner-api.ts';
import type { UploadResult } from '../../../src-shared/owner-transfer-routes.ts';
import { SESSION_COOKIE, type OwnerSessions } from '../owner-session.ts';
import type { Transfers } from '../transfers.ts';

export interface EventSource {
  subscribe(listener: (event: OwnerEvent) => void): () => void;
}

/**
 * The browser's side doors of the owner API: upload a file to import, the
 * event stream (import and run progress, as SSE), and downloads of exports.
 * All need the owner's session.
 */
export function ownerTransferRoutes(
  sessions: OwnerSessions,
  transfers: Transfers,
  events: EventSource,
  keepAliveMs: number,
): Hono {
  const app = new Hono();
  const requireSession = (c: Context): void => {
    if (!sessions.isSession(getCookie(c, SESSION_COOKIE))) {
      throw new AppError(
        'unauthorized',
        'no owner session: open the link that `svc serve` printed',
      );
    }
  };

  app.post(OWNER_UPLOAD_PATH, async (c) => {
    requireSession(c);
    const name = c.req.query('name') ?? 'upload';
    const body = c.req.raw.body;
    if (!body) throw new AppError('invalid_request', 'the upload is empty');
    const { id, path } = transfers.newUpload(name);
    // Streamed to disk: a large dataset never sits in memory.
    await pipeline(
      Readable.fromWeb(body as import('node:stream/web').ReadableStream),
      createWriteStream(path),
    );
    const stored: UploadResult = { upload_id: id, file_name: name, bytes: statSync(path).size };
    return c.json(stored);
  });

  app.get(OWNER_EVENTS_PATH, (c) => {
    requireSession(c);
    return streamSSE(c, async (stream) => {
      const unsubscribe = events.subscribe((event) => {
        void stream.writeSSE({ data: JSON.stringify(event) });
      });
      const keepalive = setInterval(() => void stream.write(': keepalive\n\n'), keepAliveMs);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      clearInterval(keepalive);
      unsubscribe();
    });
  });

  app.get(`${OWNER_DOWNLOAD_PATH}/:token`, (c) => {
    requireSession(c);
    const token = c.req.param('token');
    const { path, fileName } = transfers.download(token);
    const size = statSync(path).size;
    const file = createReadStream(path);
    // Fetched once: the temporary file goes when it has been read to the end.
    file.once('end', () => transfers.served(token));
    // Node's web stream type and the DOM lib's differ only in typing; at run time they are one class.
    const stream = Readable.toWeb(file) as unknown as ReadableStream<Uint8Array>;
    // Through the context, so the headers every response carries (x-request-id, nosniff) are kept.
    return c.body(stream, 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(size),
      'content-disposition': `attachment; filename="${fileName.replace(/[^\w.-]+/g, '_')}"`,
    });
  });
  return app;
}
