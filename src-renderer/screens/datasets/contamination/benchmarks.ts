import shipped from '../../../../src-shared/benchmark-fingerprints/index.json';

/**
 * The shipped benchmarks as the review and the Overview name them: the
 * index the fingerprints were built with (its title, source and license) is
 * read as it ships, so a set added there is named here without a change.
 * Any other name is one of the user's evaluation sets (a dataset's name).
 */

export interface ShippedBenchmark {
  name: string;
  title: string;
  items: number;
  source: string;
  license: string;
}

const BY_NAME = new Map<string, ShippedBenchmark>(
  (shipped as ShippedBenchmark[]).map((entry) => [entry.name, entry]),
);

/** The shipped benchmark of that set name (`gsm8k/test`), if it is one. */
export const shippedBenchmark = (name: string): ShippedBenchmark | undefined => BY_NAME.get(name);

/** A set as a person reads it: `GSM8K test`, or `evaluation set “my-eval”`. */
export function benchmarkTitle(name: string): string {
  return shippedBenchmark(name)?.title ?? `evaluation set “${name}”`;
}

/**
 * Which item a row holds, in words: `GSM8K test item 7` (the 0-based line
 * of the benchmark's file, as the issue numbers it), or `row 8 of
 * “my-eval”` (an evaluation set's row, counted from 1 as the grid does).
 */
export function itemTitle(name: string, item: number): string {
  const benchmark = shippedBenchmark(name);
  return benchmark ? `${benchmark.title} item ${item}` : `row ${item + 1} of “${name}”`;
}
