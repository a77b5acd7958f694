import { AbortableQueue } from '../concurrency/abortable-queue.ts';

const limiters = new Map<string, AbortableQueue>();

/**
 * One queue per upstream server and model, shared by every request of this
 * process: at most `limit` calls to it at once, the others wait in order
 * (a waiter whose request is cancelled leaves the line).
 */
export function limiterFor(key: string, limit: number): AbortableQueue {
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new AbortableQueue({ limit });
    limiters.set(key, limiter);
  } else {
    limiter.setLimit(limit); // a settings change applies at once
  }
  return limiter;
}
