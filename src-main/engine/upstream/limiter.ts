import { AppError } from '../../../src-shared/errors.ts';

/**
 * A counting semaphore: at most `limit` holders at once, the others wait in
 * order. A waiter whose signal aborts leaves the queue.
 */
export class Limiter {
  #limit: number;
  #active = 0;
  readonly #queue: (() => void)[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  get active(): number {
    return this.#active;
  }

  setLimit(limit: number): void {
    this.#limit = Math.max(1, limit);
    this.#wake();
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw new AppError('cancelled', 'the request was cancelled');
    if (this.#active < this.#limit) {
      this.#active++;
    } else {
      // the slot is taken for the waiter by whoever wakes it (#wake)
      await new Promise<void>((resolve, reject) => {
        const go = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const at = this.#queue.indexOf(go);
          if (at === -1) return; // already woken: it holds a slot and goes on
          this.#queue.splice(at, 1);
          reject(new AppError('cancelled', 'the request was cancelled'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#queue.push(go);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#wake();
    };
  }

  #wake(): void {
    while (this.#active < this.#limit) {
      const next = this.#queue.shift();
      if (!next) return;
      this.#active++;
      next();
    }
  }
}

const limiters = new Map<string, Limiter>();

/** One limiter per upstream server and model, shared by every request of this process. */
export function limiterFor(key: string, limit: number): Limiter {
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new Limiter(limit);
    limiters.set(key, limiter);
  } else {
    limiter.setLimit(limit); // a settings change applies at once
  }
  return limiter;
}
