/**
 * The public benchmarks whose fingerprints ship with the app, by the name
 * before the slash of their set (`gsm8k` for `gsm8k/test`), and the choice
 * among them that `--benchmarks` and the setting `contamination.benchmarks`
 * take: `all`, `none`, or names separated by commas.
 */
export const BENCHMARK_NAMES = [
  'gsm8k',
  'math',
  'humaneval',
  'mbpp',
  'truthfulqa',
  'bbh',
  'ifeval',
] as const;

export type BenchmarkChoice = 'all' | 'none' | string[];

/** The choice `text` says, or an error message naming what is wrong. */
export function parseBenchmarkChoice(text: string): BenchmarkChoice | { error: string } {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'all' || trimmed === 'none') return trimmed;
  const names = trimmed
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(BENCHMARK_NAMES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    return {
      error:
        (unknown.length > 0
          ? `unknown benchmark ${unknown.map((n) => `"${n}"`).join(', ')}: `
          : '') +
        `takes all, none, or names separated by commas among ${BENCHMARK_NAMES.join(', ')}`,
    };
  }
  return [...new Set(names)];
}
