/**
 * A sliding-window request limiter, in memory: at most `limit` requests in any
 * `windowMs` span, per id (a key; use one limiter per route family). Each id
 * keeps the times of its last `limit` allowed requests in a ring buffer; a
 * request is allowed when fewer than `limit` of them are younger than the
 * window. Refused requests are not recorded, so hammering does not extend the
 * wait. Ids whose window has emptied are dropped, so memory follows the keys
 * active in the last window, never the total seen.
 */

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window (after this one, when allowed). */
  remaining: number;
  /** Whole seconds until the window is empty again (`x-ratelimit-reset-requests`). */
  resetSeconds: number;
  /** Whole seconds until a request would be allowed: 0 when allowed (`Retry-After`). */
  retryAfterSeconds: number;
}

export interface RateLimiterOptions {
  limit: number;
  windowMs: number;
}

/**
 * The times of an id's most recent allowed requests, oldest at `head`. It
 * starts small and doubles up to the limit, so a quiet key costs a few bytes
 * even when the limit is large.
 */
class Ring {
  times: Float64Array;
  head = 0;
  count = 0;

  constructor(maxCapacity: number) {
    this.times = new Float64Array(Math.min(maxCapacity, 8));
  }

  oldest(): number {
    return this.times[this.head] ?? 0;
  }

  newest(): number {
    return this.times[(this.head + this.count - 1) % this.times.length] ?? 0;
  }

  /** Forgets the times at or before `cutoff`. */
  expire(cutoff: number): void {
    while (this.count > 0 && this.oldest() <= cutoff) {
      this.head = (this.head + 1) % this.times.length;
      this.count--;
    }
  }

  /** Appends a time; the caller never pushes more than `maxCapacity` live times. */
  push(time: number, maxCapacity: number): void {
    if (this.count === this.times.length) {
      const grown = new Float64Array(Math.min(maxCapacity, this.times.length * 2));
      for (let i = 0; i < this.count; i++) {
        grown[i] = this.times[(this.head + i) % this.times.length] ?? 0;
      }
      this.times = grown;
      this.head = 0;
    }
    this.times[(this.head + this.count) % this.times.length] = time;
    this.count++;
  }
}

const ceilSeconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #rings = new Map<string, Ring>();
  #lastSweep = Number.NEGATIVE_INFINITY;

  constructor(options: RateLimiterOptions) {
    if (!Number.isSafeInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`limit must be a positive whole number, got ${options.limit}`);
    }
    if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
      throw new RangeError(`windowMs must be a positive number, got ${options.windowMs}`);
    }
    this.limit = options.limit;
    this.windowMs = options.windowMs;
  }

  /** Counts a request by `id` at `now` if the window has room, and says what to answer. */
  check(id: string, now: number = Date.now()): RateLimitDecision {
    this.#sweep(now);
    const cutoff = now - this.windowMs;
    let ring = this.#rings.get(id);
    ring?.expire(cutoff);
    if (ring && ring.count >= this.limit) {
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        resetSeconds: ceilSeconds(ring.newest() + this.windowMs - now),
        retryAfterSeconds: Math.max(1, ceilSeconds(ring.oldest() + this.windowMs - now)),
      };
    }
    if (!ring) {
      ring = new Ring(this.limit);
      this.#rings.set(id, ring);
    }
    ring.push(now, this.limit);
    return {
      allowed: true,
      limit: this.limit,
      remaining: this.limit - ring.count,
      resetSeconds: ceilSeconds(ring.newest() + this.windowMs - now),
      retryAfterSeconds: 0,
    };
  }

  /** Ids currently tracked (those with a request inside the window, give or take one sweep). */
  get size(): number {
    return this.#rings.size;
  }

  /** At most once per window: drops the ids whose every request has left the window. */
  #sweep(now: number): void {
    if (now - this.#lastSweep < this.windowMs) return;
    this.#lastSweep = now;
    const cutoff = now - this.windowMs;
    for (const [id, ring] of this.#rings) {
      ring.expire(cutoff);
      if (ring.count === 0) this.#rings.delete(id);
    }
  }
}
