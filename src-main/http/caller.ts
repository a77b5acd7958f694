import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../src-shared/errors.ts';
import type { Settings } from '../../src-shared/schemas/settings.ts';
import type { ServiceContext } from '../service/context/service-context.ts';
import { authenticate } from '../service/billing/keys.ts';
import { RateLimiter } from './rate-limit.ts';

export interface KeyCaller {
  keyId: string;
  accountId: number;
}

/**
 * `settings` are read once per request, here, and handed down (limits, then
 * the cost cap, the rates and the dedup threshold): one snapshot for the
 * whole request, and no re-reading on the way.
 */
export type CallerEnv = {
  Variables: { requestId: string; caller: KeyCaller; settings: Settings };
};

/**
 * The door of the interface's routes: a valid `svc_` key (401 otherwise),
 * then the key's per-minute allowance for the route family (429 with
 * Retry-After otherwise). Both happen before the body is parsed or any credit
 * is held (only the app-wide body-size cap comes first: an oversized body is
 * 413 whoever sends it). The rate-limit headers are sent on every answer.
 */
export function keyAuth(
  ctx: ServiceContext,
  family: 'native' | 'v1',
): MiddlewareHandler<CallerEnv> {
  let limiter: RateLimiter | undefined;
  // A changed setting applies to the same window: the requests already in it still count.
  const limiterFor = (limit: number): RateLimiter => {
    limiter ??= new RateLimiter({ limit, windowMs: 60_000 });
    if (limiter.limit !== limit) limiter.limit = limit;
    return limiter;
  };
  return async (c, next) => {
    const caller = authenticate(ctx.db, c.req.header('authorization'));
    const settings = ctx.settings();
    const { limits } = settings;
    const limit =
      family === 'native' ? limits.requests_per_minute_native : limits.requests_per_minute_v1;
    const verdict = limiterFor(limit).check(caller.keyId);
    c.header('x-ratelimit-limit-requests', String(verdict.limit));
    c.header('x-ratelimit-remaining-requests', String(verdict.remaining));
    c.header('x-ratelimit-reset-requests', `${verdict.resetSeconds}s`);
    if (!verdict.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `rate limit of ${limit} requests per minute reached for this key; retry in ${verdict.retryAfterSeconds} s`,
        { retryAfterSeconds: verdict.retryAfterSeconds },
      );
    }
    c.set('caller', caller);
    c.set('settings', settings);
    await next();
  };
}
