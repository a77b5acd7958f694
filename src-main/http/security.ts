import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../src-shared/errors.ts';

/**
 * Guards a localhost server against other web pages: a Host allow-list stops
 * DNS rebinding (a foreign name resolving to 127.0.0.1), and a request that
 * carries a foreign Origin is refused. No CORS headers are ever sent, so other
 * sites cannot read responses either.
 */

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function allowedHostNames(boundHost: string): string[] {
  const bound =
    boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  const wildcard = boundHost === '0.0.0.0' || boundHost === '::';
  return wildcard ? LOOPBACK_NAMES : [...new Set([...LOOPBACK_NAMES, bound.toLowerCase()])];
}

export function hostGuard(boundHost: string, port: () => number | null): MiddlewareHandler {
  const names = allowedHostNames(boundHost);
  return async (c, next) => {
    const current = port();
    const allowed = names.flatMap((name) =>
      current === null ? [name] : [`${name}:${current}`, ...(current === 80 ? [name] : [])],
    );
    const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
    if (!allowed.includes(host)) {
      throw new AppError('forbidden', `host ${JSON.stringify(host)} is not allowed`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== 'null') {
      const allowedOrigins = allowed.map((h) => `http://${h}`);
      if (!allowedOrigins.includes(origin.toLowerCase())) {
        throw new AppError('forbidden', `cross-origin requests from ${origin} are not allowed`);
      }
    } else if (origin === 'null') {
      throw new AppError('forbidden', 'requests from opaque origins are not allowed');
    }
    await next();
  };
}
