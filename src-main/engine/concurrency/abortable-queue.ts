import { AppError } from '../../../src-shared/errors.ts';

export interface AbortableQueueOptions {
  /** Holders at once (at least 1); `setLimit` changes it later. */
  limit: number;
  /** Waiters allowed behind the holders; past that a newcomer is refused at once. Default: no bound. */
  maxQueued?: number;
  /** The error a newcomer gets when the queue is full. */
  whenFull?: () => Error;
  /** The error a waiter gets when its signal aborts (or had aborted before it came). */
  whenCancelled?: () => Error;
}

/** Gives a slot back; a second call does nothing. */
export type Release = () => void;

const cancelledByDefault = (): Error => new AppError('cancelled', 'the request was cancelled');
const fullByDefault = (): Error => new AppError('service_unavailable', 'the queue is full');

/**
 * A counting semaphore with a queue: at most `limit` holders at once, the
 * others wait in arrival order. A waiter whose signal aborts leaves the
 * queue; a bounded queue refuses a newcomer at once instead of growing, so
 * latency stays honest. A raised limit lets waiters in at once.
 */
export class AbortableQueue {
  #limit: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #maxQueued: number;
  readonly #whenFull: () => Error;
  readonly #whenCancelled: () => Error;

  constructor(options: AbortableQueueOptions) {
    this.#limit = Math.max(1, options.limit);
    this.#maxQueued = options.maxQueued ?? Infinity;
    this.#whenFull = options.whenFull ?? fullByDefault;
    this.#whenCancelled = options.whenCancelled ?? cancelledByDefault;
  }

  /** Holders now. */
  get active(): number {
    return this.#active;
  }

  /** Waiters now. */
  get queued(): number {
    return this.#waiting.length;
  }

  setLimit(limit: number): void {
    this.#limit = Math.max(1, limit);
    this.#wake();
  }

  /**
   * Throws `whenFull()` now when a newcomer would get neither a slot nor a
   * place in the queue, so that a caller can refuse before it commits to
   * anything (a streamed response, before its stream opens).
   */
  assertRoom(): void {
    if (this.#active >= this.#limit && this.#waiting.length >= this.#maxQueued) {
      throw this.#whenFull();
    }
  }

  /** Waits for a slot (or refuses: the queue is full, the signal aborted); resolves to its release. */
  async acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) throw this.#whenCancelled();
    if (this.#active < this.#limit) {
      this.#active++;
    } else {
      this.assertRoom();
      // the slot is taken for the waiter by whoever wakes it (#wake)
      await new Promise<void>((resolve, reject) => {
        const go = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const at = this.#waiting.indexOf(go);
          if (at === -1) return; // already woken: it holds a slot and goes on
          this.#waiting.splice(at, 1);
          reject(this.#whenCancelled());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#waiting.push(go);
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

  /** `work` in a slot, which is given back however the work ends. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  #wake(): void {
    while (this.#active < this.#limit) {
      const next = this.#waiting.shift();
      if (!next) return;
      this.#active++;
      next();
    }
  }
}
