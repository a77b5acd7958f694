import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { Lengths, StatisticsAccumulator } from './statistics.ts';

const conversation = (turns: number): Sample => ({
  task_type: 'conversation',
  messages: Array.from({ length: turns }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `Turn ${i} of the talk.`,
  })),
});
const text = (length: number): Sample => ({ task_type: 'text', text: 'x'.repeat(length) });

/** The value at rank ceil(q * n) of the sorted values: what a median and a 90th percentile say. */
const rankQuantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1] as number;
};

describe('length statistics', () => {
  it('gives 63 conversations of 2 turns and one of 4 a median of 2 turns', async () => {
    const stats = new StatisticsAccumulator();
    for (let i = 0; i < 63; i++) stats.add(conversation(2));
    stats.add(conversation(4));
    const { statistics } = await stats.finish();
    expect(statistics.lengths['turns per conversation']).toMatchObject({ p50: 2, p90: 2, max: 4 });
  });

  it('reads medians and 90th percentiles of short lengths exactly (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1023), { minLength: 1, maxLength: 300 }), (lengths) => {
        const tally = new Lengths();
        for (const length of lengths) tally.add(length);
        const field = tally.toJSON();
        expect(field.p50).toBe(rankQuantile(lengths, 0.5));
        expect(field.p90).toBe(rankQuantile(lengths, 0.9));
      }),
    );
  });

  it('keeps long lengths within their bin and within the values seen', async () => {
    const stats = new StatisticsAccumulator();
    const lengths = [1500, 1600, 1700, 3000, 5000];
    for (const length of lengths) stats.add(text(length));
    const field = Object.values((await stats.finish()).statistics.lengths)[0]!;
    expect(field.p50).toBeGreaterThanOrEqual(1024);
    expect(field.p50).toBeLessThanOrEqual(2047);
    expect(field.p90).toBeLessThanOrEqual(5000);
  });
});
