import { AppError } from '../../src-shared/errors.ts';

/**
 * Bounds the operations running at once (the engine shares two cores with
 * everything else) and queues the next ones in arrival order. Only when the
 * queue itself is full is a request refused, at once, with 503: a bounded
 * queue keeps latency honest instead of growing without limit.
 */
export class Gate {
  #running = 0;
  readonly #queue: (() => void)[] = [];
  readonly concurrency: number;
  readonly maxQueued: number;

  constructor(concurrency: number, maxQueued: number) {
    this.concurrency = concurrency;
    this.maxQueued = maxQueued;
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Refuses now (503) when a request would not even get a place in the queue,
   * so a streamed response can say so with its status before the stream opens.
   */
  assertRoom(): void {
    if (this.#running >= this.concurrency && this.#queue.length >= this.maxQueued) {
      throw new AppError('service_unavailable', 'the service is busy; retry in a moment', {
        retryAfterSeconds: 1,
      });
    }
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.#running >= this.concurrency) {
      this.assertRoom();
      await new Promise<void>((resolve, reject) => {
        const turn = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const index = this.#queue.indexOf(turn);
          if (index !== -1) this.#queue.splice(index, 1);
          reject(new AppError('cancelled', 'the client went away while waiting'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.#queue.push(turn);
      });
    } else {
      this.#running++;
    }
    try {
      return await work();
    } finally {
      const next = this.#queue.shift();
      if (next)
        next(); // the slot passes straight to the next in line
      else this.#running--;
    }
  }
}
