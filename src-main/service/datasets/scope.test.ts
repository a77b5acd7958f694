import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DatasetRecord } from '../../store/datasets.ts';
import {
  allRows,
  indexRows,
  RECORDED_RANGES,
  scopeRecord,
  selectionArray,
  sortedDistinct,
} from './scope.ts';

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

describe("a run's record of its scope", () => {
  it('keeps a selection as ranges that hold exactly its rows', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(300), { minLength: 1, maxLength: 400 }), (selected) => {
        const rows = indexRows(sortedDistinct(selectionArray(dataset(301), selected)));
        const record = JSON.parse(scopeRecord({ kind: 'selection', indices: selected }, rows)) as {
          kind: string;
          rows: number;
          first: number;
          last: number;
          ranges: [number, number][];
        };
        const expanded = record.ranges.flatMap(([first, last]) =>
          Array.from({ length: last - first + 1 }, (_, k) => first + k),
        );
        expect(record.kind).toBe('selection');
        expect(expanded).toEqual([...new Set(selected)].sort((a, b) => a - b));
        expect(record.rows).toBe(expanded.length);
        expect([record.first, record.last]).toEqual([expanded[0], expanded.at(-1)]);
        // Ranges as few as can be: two never touch.
        record.ranges.slice(1).forEach(([first], k) => {
          expect(first).toBeGreaterThan((record.ranges[k] as [number, number])[1] + 1);
        });
      }),
    );
  });

  it('keeps a million selected rows in a row as one range', () => {
    const indices = Array.from({ length: 1_000_000 }, (_, i) => 999_999 - i);
    const rows = indexRows(sortedDistinct(selectionArray(dataset(1_000_000), indices)));
    expect(scopeRecord({ kind: 'selection', indices }, rows)).toBe(
      '{"kind":"selection","rows":1000000,"first":0,"last":999999,"ranges":[[0,999999]]}',
    );
  });

  it('stops listing ranges past the cap: a million rows scattered one by one', () => {
    const spaced = (count: number) => Array.from({ length: count }, (_, i) => 2 * i);
    const record = (indices: number[]) =>
      JSON.parse(
        scopeRecord(
          { kind: 'selection', indices },
          indexRows(sortedDistinct(selectionArray(dataset(2_000_000), indices))),
        ),
      ) as { rows: number; first: number; last: number; ranges: unknown[] | null };
    expect(record(spaced(RECORDED_RANGES)).ranges).toHaveLength(RECORDED_RANGES);
    const scattered = record(spaced(1_000_000));
    expect(scattered).toEqual({
      kind: 'selection',
      rows: 1_000_000,
      first: 0,
      last: 1_999_998,
      ranges: null,
    });
  });

  it('keeps the whole dataset and a filter as asked', () => {
    const filter = { kind: 'filter', filter: { search: 'eggs' } } as const;
    expect(scopeRecord(filter, allRows(3))).toBe(JSON.stringify(filter));
    expect(scopeRecord({ kind: 'all' }, allRows(3))).toBe('{"kind":"all"}');
  });
});
