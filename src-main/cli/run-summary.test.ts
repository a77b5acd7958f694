import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { summaryLines, withThousands } from './run-summary.ts';

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

describe('summaryLines', () => {
  const run = {
    operation: 'audit' as const,
    usage: { 'svc-audit-1': { input_tokens: 12, output_tokens: 3, passes: 1 } },
    costMicro: 7,
    charged: 'your own run, cli_1',
    seconds: 1,
  };

  it('says one in the singular, and an input with no sample as 0 samples', () => {
    const one = summaryLines({ ...run, counts: { samples: 1, passed: 1 }, skipped: 1, samples: 1 });
    expect(one[0]).toBe('audit: 1 sample, 1 passed, 1 row skipped');
    expect(one[1]).toBe('tokens: 12 in, 3 out | svc-audit-1: 12 in, 3 out, 1 pass');
    const none = summaryLines({ ...run, counts: {}, skipped: 0, samples: 0, usage: {} });
    expect(none[0]).toBe('audit: 0 samples');
    const many = summaryLines({ ...run, counts: { samples: 2500 }, skipped: 2, samples: 2500 });
    expect(many[0]).toBe('audit: 2,500 samples, 2 rows skipped');
  });
});
