import type { MiddlewareHandler } from 'hono';
import { hostname, networkInterfaces } from 'node:os';
import { AppError } from '../../src-shared/errors.ts';

/**
 * Guards a localhost server against other web pages: a Host allow-list stops
 * DNS rebinding (a foreign name resolving to 127.0.0.1), and a request that
 * carries a foreign Origin is refused. No CORS headers are ever sent, so other
 * sites cannot read responses either.
 */

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export const isWildcardHost = (host: string): boolean => host === '0.0.0.0' || host === '::';

const bracketed = (host: string): string =>
  host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;

/** This machine's own names: its interface addresses and its host name. */
export function machineHostNames(): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((a) => bracketed(a.address.split('%')[0] ?? a.address)),
  );
  return [...addresses, hostname()];
}

/**
 * The names a request's Host may carry: loopback, the bound address, and for
 * a wildcard bind (0.0.0.0, ::) this machine's addresses and host name, so
 * the service answers on the LAN it was opened to, and still to no foreign
 * name pointed at it (DNS rebinding).
 */
export function allowedHostNames(boundHost: string, machine = machineHostNames): string[] {
  const extra = isWildcardHost(boundHost) ? machine() : [bracketed(boundHost)];
  return [...new Set([...LOOPBACK_NAMES, ...extra].map((name) => name.toLowerCase()))];
}

export function hostGuard(boundHost: string, port: () => number | null): MiddlewareHandler {
  const names = allowedHostNames(boundHost);
  // The lists follow the live port; built once per port, not on every request.
  let builtFor: number | null | undefined = undefined;
  let allowed: string[] = [];
  let allowedOrigins: string[] = [];
  return async (c, next) => {
    const current = port();
    if (current !== builtFor) {
      builtFor = current;
      allowed = names.flatMap((name) =>
        current === null ? [name] : [`${name}:${current}`, ...(current === 80 ? [name] : [])],
      );
      allowedOrigins = allowed.map((h) => `http://${h}`);
    }
    const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
    if (!allowed.includes(host)) {
      throw new AppError('forbidden', `host ${JSON.stringify(host)} is not allowed`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== 'null') {
      if (!allowedOrigins.includes(origin.toLowerCase())) {
        throw new AppError('forbidden', `cross-origin requests from ${origin} are not allowed`);
      }
    } else if (origin === 'null') {
      throw new AppError('forbidden', 'requests from opaque origins are not allowed');
    }
    await next();
  };
}
