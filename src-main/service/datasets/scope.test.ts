import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DatasetRecord } from '../../store/datasets.ts';
import { allRows, indexRows, selectionArray, sortedDistinct } from './scope.ts';

/** A run's rows: a whole dataset as a range, a selection as a sorted typed array. */

const dataset = (rows: number) => ({ id: 'ds_1', row_count: rows }) as DatasetRecord;

/** Reads a scope batch by batch, as a run does. */
function batches(rows: ReturnType<typeof allRows>, batch: number): number[] {
  const read: number[] = [];
  for (let start = 0; start < rows.length; start += batch) {
    read.push(...rows.slice(start, start + batch));
  }
  return read;
}

describe('the rows of a run over a whole dataset', () => {
  it('are the dataset rows in order, batch by batch, and one by one', () => {
    fc.assert(
      fc.property(fc.nat(3_000), fc.integer({ min: 1, max: 500 }), (count, batch) => {
        const rows = allRows(count);
        const expected = Array.from({ length: count }, (_, i) => i);
        expect(rows.length).toBe(count);
        expect(batches(rows, batch)).toEqual(expected);
        expect(Array.from({ length: count }, (_, i) => rows.at(i))).toEqual(expected);
      }),
    );
  });

  it('are not made at once for a million rows', () => {
    const range = allRows(1_000_000);
    expect(Array.isArray(range)).toBe(false);
    expect(range.slice(999_998, 1_000_200)).toEqual([999_998, 999_999]);
  });
});

describe('the rows of a run over a selection', () => {
  it('are the selected rows, ascending and each once, batch by batch', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(2_000), { minLength: 1, maxLength: 3_000 }),
        fc.integer({ min: 1, max: 500 }),
        (selected, batch) => {
          const rows = indexRows(sortedDistinct(selectionArray(dataset(2_001), selected)));
          const expected = [...new Set(selected)].sort((a, b) => a - b);
          expect(rows.length).toBe(expected.length);
          expect(batches(rows, batch)).toEqual(expected);
          expect(Array.from({ length: rows.length }, (_, i) => rows.at(i))).toEqual(expected);
        },
      ),
    );
  });

  it('names the first row that is not in the dataset', () => {
    expect(() => selectionArray(dataset(10), [3, 14, 11, 9, 12])).toThrow(
      expect.objectContaining({
        code: 'invalid_request',
        message: 'row 11 is not in the dataset (it has 10 rows)',
        param: '/scope/indices',
      }),
    );
  });
});
