import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rowIndices } from './row-indices.ts';

/** The schema it stands for, element by element: what it must accept and refuse alike. */
const reference = (min: number, max: number) => z.array(z.int().min(0)).min(min).max(max);

const element = fc.oneof(
  fc.nat(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, -0, NaN, Infinity),
  fc.string(),
  fc.constant(null),
  fc.boolean(),
);

describe('row indices', () => {
  it('accept and refuse what an array of whole numbers ≥ 0 does, naming the first bad one', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.nat(1_000), { maxLength: 12 }),
          fc.array(element, { maxLength: 12 }),
          // Holes cross IPC (structured clone keeps them): a hole is no index.
          fc.sparseArray(fc.nat(1_000), { maxLength: 12 }),
        ),
        fc.nat(3),
        fc.integer({ min: 3, max: 10 }),
        (value, min, max) => {
          const ours = rowIndices({ min, max }).safeParse(value);
          const theirs = reference(min, max).safeParse(value);
          expect(ours.success).toBe(theirs.success);
          if (ours.success) expect(ours.data).toEqual(value);
          else expect(ours.error.issues[0]?.path).toEqual(theirs.error?.issues[0]?.path);
        },
      ),
    );
  });

  it('refuse what is not an array', () => {
    for (const value of ['1,2', { 0: 1 }, null, 3]) {
      expect(rowIndices({ max: 10 }).safeParse(value).error?.issues[0]?.message).toBe(
        'expected an array of row indices',
      );
    }
  });

  it('say how many is too many', () => {
    expect(
      rowIndices({ max: 1_000_000 }).safeParse(Array(1_000_001).fill(0)).error?.issues[0]?.message,
    ).toBe('expected at most 1,000,000 row indices, got 1,000,001');
  });

  it('document themselves as the array they stand for', () => {
    const schema = (indices: z.ZodType) => z.toJSONSchema(z.object({ indices }), { io: 'input' });
    expect(schema(rowIndices({ min: 1, max: 500 }))).toEqual(schema(reference(1, 500)));
    expect(schema(rowIndices({ max: 500 }))).toEqual(schema(z.array(z.int().min(0)).max(500)));
  });
});
