import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

describe('RateLimiter', () => {
  it('is a sliding window: 3 per 60 s, refused at 59 s, allowed again just after 60 s', () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 });
    expect(limiter.check('k', 0)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetSeconds: 60,
      retryAfterSeconds: 0,
    });
    expect(limiter.check('k', 0).remaining).toBe(1);
    expect(limiter.check('k', 0).remaining).toBe(0);
    expect(limiter.check('k', 59_000)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 1,
      retryAfterSeconds: 1,
    });
    expect(limiter.check('k', 59_999).allowed).toBe(false);
    expect(limiter.check('k', 60_001)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('slides rather than resetting at fixed boundaries', () => {
    const limiter = new RateLimiter({ limit: 2, windowMs: 10_000 });
    expect(limiter.check('k', 0).allowed).toBe(true);
    expect(limiter.check('k', 9_000).allowed).toBe(true);
    // A fixed window would start afresh at 10 s; here only the request at 0 has left.
    expect(limiter.check('k', 10_500).allowed).toBe(true);
    const refused = limiter.check('k', 11_000);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 8, resetSeconds: 10 });
    expect(limiter.check('k', 18_999).allowed).toBe(false);
    expect(limiter.check('k', 19_001).allowed).toBe(true);
  });

  it('does not count refused requests, and keeps ids apart', () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 1_000 });
    expect(limiter.check('a', 0).allowed).toBe(true);
    for (let t = 100; t < 1_000; t += 100) expect(limiter.check('a', t).allowed).toBe(false);
    expect(limiter.check('b', 500).allowed).toBe(true);
    expect(limiter.check('a', 1_000).allowed).toBe(true);
  });

  it('drops ids whose window has emptied (bounded memory)', () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 60_000 });
    for (let i = 0; i < 1_000; i++) limiter.check(`key_${i}`, i);
    expect(limiter.size).toBe(1_000);
    limiter.check('late', 61_000);
    expect(limiter.size).toBe(1);
  });

  it('grows a busy id up to the limit and stays exact', () => {
    const limiter = new RateLimiter({ limit: 1_000, windowMs: 1_000 });
    for (let i = 0; i < 1_000; i++) expect(limiter.check('k', i / 2).allowed).toBe(true);
    expect(limiter.check('k', 500).allowed).toBe(false);
    // At 1000.75 the requests at 0 and 0.5 have left the window: two free, one taken now.
    expect(limiter.check('k', 1_000.75)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('refuses nonsense options', () => {
    expect(() => new RateLimiter({ limit: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => new RateLimiter({ limit: 1.5, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => new RateLimiter({ limit: 1, windowMs: 0 })).toThrow(RangeError);
  });

  it('property: decides exactly as a naive log of allowed times, never exceeding the limit, as the limit changes', () => {
    const arbitrary = fc.record({
      limit: fc.integer({ min: 1, max: 6 }),
      windowMs: fc.integer({ min: 1, max: 100 }),
      steps: fc.array(
        fc.record({
          gap: fc.integer({ min: 0, max: 40 }),
          id: fc.integer({ min: 0, max: 2 }),
          // Now and then the setting changes: the window's requests still count.
          limit: fc.option(fc.integer({ min: 1, max: 6 }), { freq: 8 }),
        }),
        { maxLength: 200 },
      ),
    });
    fc.assert(
      fc.property(arbitrary, ({ limit: first, windowMs, steps }) => {
        const limiter = new RateLimiter({ limit: first, windowMs });
        let limit = first;
        const log = new Map<string, number[]>();
        let now = 0;
        for (const step of steps) {
          now += step.gap;
          if (step.limit !== null) limiter.limit = limit = step.limit;
          const id = String(step.id);
          const live = (log.get(id) ?? []).filter((t) => t > now - windowMs);
          const expected = live.length < limit;
          if (expected) live.push(now);
          log.set(id, live);
          const decision = limiter.check(id, now);
          expect(decision.allowed).toBe(expected);
          expect(decision.limit).toBe(limit);
          expect(decision.remaining).toBe(Math.max(0, limit - live.length));
          if (!expected) {
            expect(decision.retryAfterSeconds).toBe(
              Math.max(1, Math.ceil((live[live.length - limit]! + windowMs - now) / 1000)),
            );
          }
        }
      }),
    );
  });

  it('keeps the window when the limit is lowered: no fresh allowance', () => {
    const limiter = new RateLimiter({ limit: 60, windowMs: 60_000 });
    for (let i = 0; i < 10; i++) expect(limiter.check('k', i * 1_000).allowed).toBe(true);
    limiter.limit = 2;
    // Ten requests in the window: room again once all but one have left it (the one at 8 s last).
    expect(limiter.check('k', 10_000)).toMatchObject({ allowed: false, retryAfterSeconds: 58 });
    expect(limiter.check('k', 67_500).allowed).toBe(false);
    expect(limiter.check('k', 68_001).allowed).toBe(true);
    expect(() => (limiter.limit = 0)).toThrow(RangeError);
  });
});
