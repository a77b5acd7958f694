import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtThrough, firstUndone, partOfRow, type IndexLayout } from './search-index-layout.ts';

/**
 * The prefix a reader takes from the search index's parts is exactly the
 * rows they hold together: each part stores the rows of its chunks in order,
 * as far as any of them, and every row up to the prefix is stored while the
 * row after it (when imported) is not.
 */

const layouts = fc.record({
  parts: fc.integer({ min: 1, max: 6 }),
  chunk: fc.integer({ min: 1, max: 9 }),
});

/** The rows of part `part`, in order, among the first `rows`. */
const rowsOf = (layout: IndexLayout, part: number, rows: number): number[] =>
  Array.from({ length: rows }, (_, row) => row).filter((row) => partOfRow(layout, row) === part);

describe('the search index layout', () => {
  it('takes as built exactly the prefix every part has stored', () => {
    fc.assert(
      fc.property(
        layouts,
        fc.integer({ min: 0, max: 120 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()), {
          minLength: 6,
          maxLength: 6,
        }),
        (layout, rowCount, shares) => {
          const stored = new Set<number>();
          const lasts = Array.from({ length: layout.parts }, (_, part) => {
            const own = rowsOf(layout, part, rowCount);
            const [share, told] = shares[part] as [number, boolean];
            const count = Math.round(share * own.length);
            for (const row of own.slice(0, count)) stored.add(row);
            const last = count === 0 ? -1 : (own[count - 1] as number);
            // A part with all its rows may or may not have said it is complete yet.
            expect(firstUndone(layout, part, last)).toBe(
              count < own.length ? own[count] : firstUndone(layout, part, last),
            );
            return count === own.length && told ? ('complete' as const) : last;
          });
          const through = builtThrough(layout, lasts, rowCount);
          for (let row = 0; row <= through && row < rowCount; row++)
            expect(stored.has(row)).toBe(true);
          if (through + 1 < rowCount) expect(stored.has(through + 1)).toBe(false);
          if (lasts.every((last) => last === 'complete')) expect(through).toBe(rowCount - 1);
          expect(through).toBeGreaterThanOrEqual(-1);
        },
      ),
    );
  });

  it('starts each part at its first chunk and passes over the chunks of the others', () => {
    const layout = { parts: 3, chunk: 10 };
    expect([0, 1, 2].map((part) => firstUndone(layout, part, -1))).toEqual([0, 10, 20]);
    expect(firstUndone(layout, 0, 4)).toBe(5);
    expect(firstUndone(layout, 0, 9)).toBe(30);
    expect(firstUndone(layout, 2, 29)).toBe(50);
    expect(builtThrough(layout, [9, 15, -1], 100)).toBe(15);
    expect(builtThrough(layout, [9, 19, 29], 100)).toBe(29);
    expect(builtThrough(layout, ['complete', 'complete', 'complete'], 25)).toBe(24);
  });
});
