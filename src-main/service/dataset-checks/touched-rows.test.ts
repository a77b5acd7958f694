import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TouchedRows } from './touched-rows.ts';

/**
 * A scan's rows (position -> row, ascending), the positions with issues and
 * the rows that had verdicts before (in any order, perhaps repeated).
 */
const scanCase = fc.uniqueArray(fc.nat(400), { maxLength: 120 }).chain((rows) => {
  const rowIndex = Int32Array.from([...rows].sort((a, b) => a - b));
  const positions = fc.uniqueArray(fc.nat(Math.max(0, rowIndex.length - 1)), {
    maxLength: rowIndex.length,
  });
  return fc.record({
    rowIndex: fc.constant(rowIndex),
    withIssues: rowIndex.length === 0 ? fc.constant([]) : positions,
    hadChecks: fc.array(fc.nat(400), { maxLength: 60 }),
    block: fc.integer({ min: 1, max: 40 }),
  });
});

describe('the rows a scan writes verdicts for, a block at a time', () => {
  it('are every row with issues and every row that had some, ascending, each once', () => {
    fc.assert(
      fc.property(scanCase, ({ rowIndex, withIssues, hadChecks, block }) => {
        const issues = Int32Array.from([...withIssues].sort((a, b) => a - b));
        const touched = new TouchedRows(issues, rowIndex, Int32Array.from(hadChecks));
        const rows: number[] = [];
        const asked: number[] = [];
        for (let next = touched.next(block); next.rows.length > 0; next = touched.next(block)) {
          expect(next.rows.length).toBeLessThanOrEqual(block);
          // A block's positions with issues are those of its own rows.
          const mine = new Set(next.rows);
          for (const p of next.withIssues) expect(mine.has(rowIndex[p] as number)).toBe(true);
          rows.push(...next.rows);
          asked.push(...next.withIssues);
        }
        const expected = [
          ...new Set([...Array.from(issues, (p) => rowIndex[p] as number), ...hadChecks]),
        ].sort((a, b) => a - b);
        expect(rows).toEqual(expected);
        expect(asked).toEqual(Array.from(issues));
      }),
      { numRuns: 500 },
    );
  });

  it('hands out nothing once done, and nothing for a scan with nothing to write', () => {
    const none = new TouchedRows(new Int32Array(0), Int32Array.from([0, 1, 2]), new Int32Array(0));
    expect(none.next(256)).toEqual({ rows: [], withIssues: [] });
    const one = new TouchedRows(Int32Array.from([1]), Int32Array.from([3, 7]), new Int32Array(0));
    expect(one.next(256)).toEqual({ rows: [7], withIssues: [1] });
    expect(one.next(256)).toEqual({ rows: [], withIssues: [] });
  });
});
