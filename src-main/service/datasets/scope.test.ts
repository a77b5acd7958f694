import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../store/db.ts';
import type { DatasetRecord } from '../../store/datasets.ts';
import { scopeIndices, scopeRows } from './scope.ts';

/** A whole dataset's scope is a range, read a batch at a time, never made as one array. */

const dataset = (rows: number) => ({ id: 'ds_1', row_count: rows }) as DatasetRecord;
// The whole dataset's scope reads nothing from the database.
const db = {} as Db;

describe('the rows of a run over a whole dataset', () => {
  it('are the dataset rows in order, batch by batch, as the indices are', () => {
    fc.assert(
      fc.property(fc.nat(3_000), fc.integer({ min: 1, max: 500 }), (rows, batch) => {
        const range = scopeRows(db, dataset(rows), { kind: 'all' });
        const indices = scopeIndices(db, dataset(rows), { kind: 'all' });
        expect(range.length).toBe(rows);
        const read: number[] = [];
        for (let start = 0; start < range.length; start += batch) {
          const slice = range.slice(start, start + batch);
          expect(slice).toEqual(indices.slice(start, start + batch));
          read.push(...slice);
        }
        expect(read).toEqual(Array.from({ length: rows }, (_, i) => i));
      }),
    );
  });

  it('are not made at once for a million rows', () => {
    const range = scopeRows(db, dataset(1_000_000), { kind: 'all' });
    expect(Array.isArray(range)).toBe(false);
    expect(range.slice(999_998, 1_000_200)).toEqual([999_998, 999_999]);
  });
});
