import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withThousands } from './run-summary.ts';

describe('withThousands', () => {
  it("writes whole numbers as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 999, 1000, -1000, 123456, 1234567, -987654321]) {
      expect(withThousands(n)).toBe(n.toLocaleString('en-US'));
    }
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double()), (n) => {
        expect(withThousands(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
  });
});
