import { type Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { AppError, validationError } from '../../../src-shared/errors.ts';
import { OWNER_HTTP_PREFIX, ownerApi, OWNER_METHODS } from '../../../src-shared/owner-api.ts';
import { EncodedJson } from '../../service/owner/encoded-json.ts';
import type { OwnerHandlers } from '../../service/owner/handler-types.ts';
import { readJson } from '../json-body.ts';
import { SESSION_COOKIE, type OwnerSessions } from '../owner-session.ts';

/**
 * `POST /owner/<method>`: the browser transport of the owner API. Only a
 * session cookie opens it; an API key does not.
 */
export function ownerRoutes(handlers: OwnerHandlers, sessions: OwnerSessions): Hono {
  const app = new Hono();
  app.use(`${OWNER_HTTP_PREFIX}/*`, async (c, next) => {
    if (!sessions.isSession(getCookie(c as Context, SESSION_COOKIE))) {
      throw new AppError(
        'unauthorized',
        'no owner session: open the link that `svc serve` printed to sign in',
      );
    }
    await next();
  });
  for (const method of OWNER_METHODS) {
    app.post(`${OWNER_HTTP_PREFIX}/${method}`, async (c) => {
      const parsed = ownerApi[method].input.safeParse(await readJson(c));
      if (!parsed.success) throw validationError(parsed.error, `input of ${method}`);
      const handler = handlers[method] as (input: unknown) => Promise<unknown>;
      const answer = await handler(parsed.data);
      // Encoded by the thread that read it: sent as it is, never parsed or copied here.
      return answer instanceof EncodedJson
        ? c.body(answer.bytes, 200, { 'content-type': 'application/json' })
        : c.json(answer);
    });
  }
  return app;
}
