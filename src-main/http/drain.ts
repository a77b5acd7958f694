import { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';

/**
 * A refused request is answered so that the client can read the answer.
 *
 * A route may answer without reading the body (a 404, a 401, a 413 on the
 * declared length) or stop reading it half way (a chunked body past the
 * limit). If the connection then closes while the client is still sending,
 * the kernel answers the unread bytes with a reset, and the client gets EPIPE
 * or ECONNRESET and loses the answer: Node closes a `Connection: close`
 * request's socket right after its response, and @hono/node-server drains an
 * unread body for only 500 ms before it closes the socket.
 *
 * So the rest of an unread body is read and thrown away before the answer
 * goes out, up to DRAIN_BYTES and DRAIN_MS (a client that sends more, or
 * slower, gets its answer with `Connection: close` and may lose it). A route
 * that reads its body finds nothing left here.
 */

/** Bytes of an unread body discarded before the answer goes out anyway. */
export const DRAIN_BYTES = 64 * 1024 * 1024;
/** How long an unread body is discarded before the answer goes out anyway. */
export const DRAIN_MS = 30_000;

export interface DrainLimits {
  bytes: number;
  ms: number;
}

/** Reads what is left of a request's body into nothing; true once all of it arrived. */
export function discardRest(request: IncomingMessage, limits: DrainLimits): Promise<boolean> {
  if (request.complete || request.readableEnded) return Promise.resolve(true);
  if (request.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const done = (complete: boolean): void => {
      clearTimeout(timer);
      request.off('data', count);
      request.off('end', ended);
      request.off('close', closed);
      resolve(complete);
    };
    const count = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (bytes > limits.bytes) done(false);
    };
    const ended = (): void => done(true);
    const closed = (): void => done(request.complete);
    const timer = setTimeout(() => done(false), limits.ms);
    // A reader that stopped half way (a body stream past its limit) still listens and
    // would pause the request when its queue fills: no one reads this body after us.
    request.removeAllListeners('data');
    request.on('data', count);
    request.once('end', ended);
    request.once('close', closed);
    request.resume();
  });
}

/**
 * The middleware: after the route has answered, the rest of its request's
 * body is discarded before the answer is sent. Only on Node's server (the
 * adapter passes the request as `env.incoming`); `app.request()` has none.
 */
export function drainUnreadBody(limits: DrainLimits = { bytes: DRAIN_BYTES, ms: DRAIN_MS }) {
  const middleware: MiddlewareHandler = async (c, next) => {
    await next();
    const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
    if (!(incoming instanceof IncomingMessage)) return;
    const complete = await discardRest(incoming, limits);
    if (!complete) c.res.headers.set('Connection', 'close');
  };
  return middleware;
}
