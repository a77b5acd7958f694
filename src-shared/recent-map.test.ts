import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setMostRecent } from './recent-map.ts';

describe('setMostRecent', () => {
  it('keeps the max most recently set keys, oldest first, each with its latest value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer()), { maxLength: 60 }),
        fc.integer({ min: 1, max: 6 }),
        (sets, max) => {
          const map = new Map<number, number>();
          for (const [key, value] of sets) setMostRecent(map, key, value, max);
          // The model: the distinct keys by their last set, the latest last, the last max of them.
          const order: number[] = [];
          const latest = new Map<number, number>();
          for (const [key, value] of sets) {
            const at = order.indexOf(key);
            if (at >= 0) order.splice(at, 1);
            order.push(key);
            latest.set(key, value);
          }
          const kept = order.slice(-max);
          expect([...map.keys()]).toEqual(kept);
          for (const key of kept) expect(map.get(key)).toBe(latest.get(key));
        },
      ),
    );
  });

  it('moves a key set again to the end rather than keeping its first place', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    setMostRecent(map, 'a', 3, 2);
    setMostRecent(map, 'c', 4, 2);
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
