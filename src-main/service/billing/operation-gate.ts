import { AppError } from '../../../src-shared/errors.ts';
import { AbortableQueue } from '../../engine/concurrency/abortable-queue.ts';

/**
 * Bounds the billed operations running at once (the engine shares two cores
 * with everything else) and queues the next ones in arrival order. Only when
 * the queue itself is full is a request refused, at once, with 503: a bounded
 * queue keeps latency honest instead of growing without limit.
 */
export class OperationGate extends AbortableQueue {
  constructor(concurrency: number, maxQueued: number) {
    super({
      limit: concurrency,
      maxQueued,
      whenFull: () =>
        new AppError('service_unavailable', 'the service is busy; retry in a moment', {
          retryAfterSeconds: 1,
        }),
      whenCancelled: () => new AppError('cancelled', 'the client went away while waiting'),
    });
  }

  /** Operations running now. */
  get running(): number {
    return this.active;
  }
}
