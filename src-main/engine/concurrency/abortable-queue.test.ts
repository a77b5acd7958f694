import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import { AbortableQueue } from './abortable-queue.ts';

describe('AbortableQueue', () => {
  it('lets `limit` holders in at once, in order, and drops a waiter whose signal aborts', async () => {
    const limiter = new AbortableQueue({ limit: 2 });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    const order: string[] = [];
    const c = limiter.acquire().then((release) => (order.push('c'), release));
    const controller = new AbortController();
    const d = limiter.acquire(controller.signal);
    const e = limiter.acquire().then((release) => (order.push('e'), release));
    controller.abort();
    await expect(d).rejects.toBeInstanceOf(AppError);
    expect(limiter.active).toBe(2);
    a();
    b();
    (await c)();
    (await e)();
    expect(order).toEqual(['c', 'e']);
    expect(limiter.active).toBe(0);
  });

  it('applies a raised limit at once', async () => {
    const limiter = new AbortableQueue({ limit: 1 });
    await limiter.acquire();
    let second = false;
    const waiting = limiter.acquire().then((release) => ((second = true), release));
    limiter.setLimit(2);
    (await waiting)();
    expect(second).toBe(true);
  });
});
