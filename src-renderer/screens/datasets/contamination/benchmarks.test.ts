import { describe, expect, it } from 'vitest';
import { BENCHMARK_NAMES } from '../../../../src-shared/benchmarks.ts';
import { benchmarkTitle, itemTitle, shippedBenchmark } from './benchmarks.ts';

describe('benchmark names in the review and the Overview', () => {
  it('names every shipped benchmark by its title, with its source and license', () => {
    for (const name of BENCHMARK_NAMES) {
      const sets = ['test', 'validation']
        .map((split) => shippedBenchmark(`${name}/${split}`))
        .filter((set) => set !== undefined);
      expect(sets, name).toHaveLength(1);
      expect(sets[0]?.title, name).not.toBe('');
      expect(sets[0]?.license, name).not.toBe('');
    }
    expect(benchmarkTitle('gsm8k/test')).toBe('GSM8K test');
    expect(itemTitle('gsm8k/test', 7)).toBe('GSM8K test item 7');
  });

  it('reads any other name as an evaluation set, its rows counted from 1', () => {
    expect(shippedBenchmark('gsm8k')).toBeUndefined();
    expect(benchmarkTitle('csqa-eval')).toBe('evaluation set “csqa-eval”');
    expect(itemTitle('csqa-eval', 0)).toBe('row 1 of “csqa-eval”');
  });
});
