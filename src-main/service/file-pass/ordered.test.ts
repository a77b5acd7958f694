import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderedMap } from './ordered.ts';

/**
 * orderedMap under every order of completion (fast-check's scheduler
 * decides which pending result settles next): results are consumed in the
 * source's order, no more than `window` run at once, and the first failure
 * in the source's order rejects, nothing after it consumed.
 */

/** The items as a synchronous or an asynchronous source. */
function sourceOf(
  items: readonly number[],
  async: boolean,
): Iterable<number> | AsyncIterable<number> {
  if (!async) return items;
  return (async function* () {
    for (const item of items) {
      await Promise.resolve();
      yield item;
    }
  })();
}

describe('orderedMap', () => {
  it('consumes results in the source order, whatever order they complete in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.integer(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        fc.boolean(),
        async (s, items, window, asyncSource, asyncConsume) => {
          let running = 0;
          let most = 0;
          let started = 0;
          let unconsumed = 0;
          let mostUnconsumed = 0;
          const consumed: [number, number][] = [];
          const done = orderedMap(
            sourceOf(items, asyncSource),
            window,
            (item) => {
              started++;
              running++;
              unconsumed++;
              most = Math.max(most, running);
              mostUnconsumed = Math.max(mostUnconsumed, unconsumed);
              return s.schedule(Promise.resolve(item * 2)).then((result) => {
                running--;
                return result;
              });
            },
            async (result, item) => {
              if (asyncConsume) await s.schedule(Promise.resolve());
              unconsumed--;
              consumed.push([result, item]);
            },
          );
          await s.waitFor(done);
          expect(consumed).toEqual(items.map((item) => [item * 2, item]));
          expect(started).toBe(items.length);
          expect(mostUnconsumed).toBeLessThanOrEqual(window);
          // The window is used: as many run at once as it allows (the scheduler settles none
          // before they have all started).
          expect(most).toBe(Math.min(window, items.length));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects with the first failure in the source order, consuming only what came before', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        async (s, fails, window, asyncSource) => {
          const first = fails.indexOf(true);
          fc.pre(first >= 0);
          const items = fails.map((_, i) => i);
          const consumed: number[] = [];
          let started = 0;
          const done = orderedMap(
            sourceOf(items, asyncSource),
            window,
            (item) => {
              started++;
              const outcome = fails[item]
                ? Promise.reject(new Error(`item ${item} failed`))
                : Promise.resolve(item);
              return s.schedule(outcome);
            },
            (result) => {
              consumed.push(result);
            },
          );
          const settled = done.then(
            () => 'resolved',
            (error: unknown) => (error as Error).message,
          );
          expect(await s.waitFor(settled)).toBe(`item ${first} failed`);
          expect(consumed).toEqual(items.slice(0, first));
          // Nothing starts once the failure is seen: at most a window past the one that failed.
          expect(started).toBeLessThanOrEqual(first + window);
          await s.waitIdle();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects when the source fails, after consuming what it gave', async () => {
    const consumed: number[] = [];
    const source = (async function* () {
      yield await Promise.resolve(1);
      yield 2;
      throw new Error('read failed');
    })();
    await expect(
      orderedMap(
        source,
        4,
        (item) => Promise.resolve(item),
        (result) => void consumed.push(result),
      ),
    ).rejects.toThrow('read failed');
    expect(consumed.length).toBeLessThanOrEqual(2);
  });

  it('rejects when consuming fails, and starts nothing more', async () => {
    let started = 0;
    await expect(
      orderedMap(
        [1, 2, 3, 4, 5, 6],
        2,
        (item) => {
          started++;
          return Promise.resolve(item);
        },
        (result) => {
          if (result === 2) throw new Error('write failed');
        },
      ),
    ).rejects.toThrow('write failed');
    expect(started).toBeLessThanOrEqual(3);
  });
});
