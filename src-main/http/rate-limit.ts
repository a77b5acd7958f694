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

  /** The k-th oldest time (0: the oldest). */
  at(k: number): number {
    return this.times[(this.head + k) % this.times.length] ?? 0;
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

function checkedLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`limit must be a positive whole number, got ${limit}`);
  }
  return limit;
}

export class RateLimiter {
  #limit: number;
  readonly windowMs: number;
  readonly #rings = new Map<string, Ring>();
  #lastSweep = Number.NEGATIVE_INFINITY;

  constructor(options: RateLimiterOptions) {
    if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
      throw new RangeError(`windowMs must be a positive number, got ${options.windowMs}`);
    }
    this.#limit = checkedLimit(options.limit);
    this.windowMs = options.windowMs;
  }

  get limit(): number {
    return this.#limit;
  }

  /**
   * A new limit (the setting changed) over the same window: the requests already
   * in it still count, so lowering the limit does not hand every key a fresh
   * allowance, and raising it does not forget what was sent.
   */
  set limit(limit: number) {
    this.#limit = checkedLimit(limit);
  }

  /** Counts a request by `id` at `now` if the window has room, and says what to answer. */
  check(id: string, now: number = Date.now()): RateLimitDecision {
    this.#sweep(now);
    const cutoff = now - this.windowMs;
    let ring = this.#rings.get(id);
    ring?.expire(cutoff);
    if (ring && ring.count >= this.limit) {
      // Room comes back when all but limit - 1 of the requests in the window have left it (more
      // than one when the limit was lowered since).
      const freeing = ring.at(ring.count - this.limit);
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        resetSeconds: ceilSeconds(ring.newest() + this.windowMs - now),
        retryAfterSeconds: Math.max(1, ceilSeconds(freeing + this.windowMs - now)),
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
