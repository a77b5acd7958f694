import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../../src-shared/errors.ts';
import type { EngineBackend } from '../engine/backend.ts';
import { createBilledPipeline } from '../service/billing/billed-pipeline.ts';
import { OperationGate } from '../service/billing/operation-gate.ts';
import type { ServiceContext } from '../service/context/service-context.ts';
import type { OwnerHandlers } from '../service/owner/handler-types.ts';
import { keyAuth } from './caller.ts';
import { drainUnreadBody } from './drain.ts';
import { withPublicErrors } from './public-errors.ts';
import { asAppError, errorResponse } from './errors.ts';
import type { OwnerSessions } from './owner-session.ts';
import { randomHex } from './random-id.ts';
import { metaRoutes } from './routes/meta.ts';
import { nativeRoutes } from './routes/native.ts';
import { v1ChatRoutes } from './routes/v1-chat.ts';
import { ownerRoutes } from './routes/owner.ts';
import { ownerTransferRoutes, type EventSource } from './routes/owner-transfers.ts';
import type { Transfers } from './transfers.ts';
import { OWNER_UPLOAD_PATH } from '../../src-shared/owner-api.ts';
import { CONTENT_SECURITY_POLICY, rendererRoutes } from './routes/renderer.ts';
import { v1ModelRoutes } from './routes/v1-models.ts';
import { v1ResponsesRoutes } from './routes/v1-responses.ts';
import { hostGuard } from './security.ts';

export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface HttpAppOptions {
  ctx: ServiceContext;
  owner: OwnerHandlers;
  sessions: OwnerSessions;
  rendererDir: string | null;
  /** The host the server is bound to and its live port, for the Host allow-list. */
  boundHost: string;
  port: () => number | null;
  /** The engine backend in force (read per request, so a settings change applies at once). */
  backend: () => EngineBackend;
  /** SSE keepalive period; 10 s unless a test wants it faster. */
  keepAliveMs?: number;
  /** Operations allowed to run at once; the next ones queue. */
  maxConcurrentOperations?: number;
  /** Operations allowed to wait; past that, 503. */
  maxQueuedOperations?: number;
  /** The browser transport's uploads, downloads and event stream (absent: those routes 404). */
  transfers?: Transfers;
  events?: EventSource;
}

export const DEFAULT_KEEPALIVE_MS = 10_000;

type Env = { Variables: { requestId: string } };
// Route groups declare more variables (the caller); they are set by their own middleware.

/** The whole HTTP surface. One `onError` translates every failure to its route family's shape. */
export function createHttpApp(options: HttpAppOptions): Hono<Env> {
  const app = new Hono<Env>();

  // First in, last out: a body the route left unread is discarded before the answer goes.
  app.use('*', drainUnreadBody());
  app.use('*', async (c, next) => {
    const requestId = `req_${randomHex(12)}`;
    c.set('requestId', requestId);
    c.header('x-request-id', requestId);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    const started = performance.now();
    await next();
    // How long the server spent on the request (for clients and the bench).
    c.res.headers.set('Server-Timing', `app;dur=${(performance.now() - started).toFixed(2)}`);
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      c.res.headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      c.res.headers.set('X-Frame-Options', 'DENY');
    }
  });
  app.use('*', hostGuard(options.boundHost, options.port));
  const tooLarge = (): never => {
    throw new AppError(
      'payload_too_large',
      `request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`,
    );
  };
  const limitBody: MiddlewareHandler<Env> = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: tooLarge,
  });
  // Dataset uploads stream to disk and may be any size; every other body is capped.
  // A declared length is checked here without touching the body (what bodyLimit does
  // too, once it has built the request's body stream and, through hono/combine's
  // `except`, a composed middleware per request); a chunked body goes to bodyLimit.
  const capBody: MiddlewareHandler<Env> = (c, next) => {
    if (c.req.path === OWNER_UPLOAD_PATH) return next();
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return parseInt(length, 10) > MAX_BODY_BYTES ? tooLarge() : next();
    }
    return limitBody(c, next);
  };
  app.use('*', capBody);

  app.route('/', metaRoutes(options.ctx));
  // Every billed route runs its requests through one pipeline, behind one gate. Key
  // holders read failures without the model server's address, model or configuration.
  const pipeline = createBilledPipeline({
    ctx: options.ctx,
    gate: new OperationGate(
      options.maxConcurrentOperations ?? 4,
      options.maxQueuedOperations ?? 256,
    ),
    backend: () => withPublicErrors(options.backend()),
  });
  app.route('/', nativeRoutes(options.ctx, pipeline));
  // One door per route family: a key's per-minute allowance covers every route of its family.
  const v1Auth = keyAuth(options.ctx, 'v1');
  const v1Options = { keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEPALIVE_MS };
  app.route('/', v1ChatRoutes(pipeline, v1Auth, v1Options));
  app.route('/', v1ResponsesRoutes(pipeline, v1Auth, v1Options));
  app.route('/', v1ModelRoutes(options.ctx, v1Auth));
  app.route('/', ownerRoutes(options.owner, options.sessions));
  if (options.transfers && options.events) {
    app.route(
      '/',
      ownerTransferRoutes(
        options.sessions,
        options.transfers,
        options.events,
        options.keepAliveMs ?? DEFAULT_KEEPALIVE_MS,
      ),
    );
  }
  app.route('/', rendererRoutes(options.rendererDir, options.sessions));

  app.notFound((c) =>
    errorResponse(c, new AppError('not_found', `no route for ${c.req.method} ${c.req.path}`)),
  );
  app.onError((error, c) => errorResponse(c, asAppError(error, c.get('requestId'))));
  return app;
}
