import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { serveStatic } from '@hono/node-server/serve-static';
import { SESSION_COOKIE, type OwnerSessions } from '../owner-session.ts';

/** The same policy as the Electron window's: only this origin, no inline scripts. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
  "frame-ancestors 'none'; form-action 'self'";

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>svc</title>
<p>The app's interface is not built yet. Run <code>npm run build</code>, then restart <code>svc serve</code>.</p>`;

/**
 * Serves the built renderer at `/`. `/?token=...` redeems the one-time owner
 * token for a session cookie and redirects to a clean URL.
 */
export function rendererRoutes(rendererDir: string | null, sessions: OwnerSessions): Hono {
  const app = new Hono();
  const built = rendererDir !== null && existsSync(join(rendererDir, 'index.html'));

  app.get('/', async (c, next) => {
    const token = c.req.query('token');
    if (token !== undefined) {
      const session = sessions.redeem(token);
      if (session) {
        setCookie(c, SESSION_COOKIE, session, {
          httpOnly: true,
          sameSite: 'Strict',
          path: '/',
        });
      }
      // Drop the token from the address bar (and from history) either way.
      return c.redirect(session ? '/' : '/#/signed-out', 302);
    }
    if (!built) return c.html(NOT_BUILT, 503);
    await next();
  });

  if (built && rendererDir) {
    app.use('/*', serveStatic({ root: rendererDir }));
  }
  return app;
}
