/**
 * At most one event per `intervalMs`: `due()` says whether one may go now
 * (and, when it may, starts the next interval). Final events bypass it.
 */
export class Throttle {
  readonly #intervalMs: number;
  readonly #now: () => number;
  #last = Number.NEGATIVE_INFINITY;

  constructor(intervalMs: number, now: () => number = () => performance.now()) {
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  due(): boolean {
    const now = this.#now();
    if (now - this.#last < this.#intervalMs) return false;
    this.#last = now;
    return true;
  }
}
