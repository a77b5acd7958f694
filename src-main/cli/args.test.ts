import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './args.ts';

const OPTIONS = {
  benchmarks: { type: 'string' },
  against: { type: 'string', multiple: true },
  out: { type: 'string' },
  quiet: { type: 'boolean' },
} as const;

const refusal = (argv: string[]): string => {
  try {
    parseCommandArgs(argv, OPTIONS, true, {
      benchmarks: 'several names as a comma list: gsm8k,math',
    });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('parseCommandArgs', () => {
  it('reads values, repeated multiple options and repeated booleans', () => {
    const { values, positionals } = parseCommandArgs(
      ['in.jsonl', '--against', 'a.jsonl', '--against=b.jsonl', '--quiet', '--quiet', '--out', 'o'],
      OPTIONS,
      true,
    );
    expect(values).toEqual({ against: ['a.jsonl', 'b.jsonl'], quiet: true, out: 'o' });
    expect(positionals).toEqual(['in.jsonl']);
  });

  it('refuses an option of one value given twice, where the last silently won', () => {
    expect(refusal(['--benchmarks', 'gsm8k', '--benchmarks', 'math'])).toBe(
      '--benchmarks is given twice: give it once (several names as a comma list: gsm8k,math)',
    );
    expect(refusal(['--out', 'a', '--out=b'])).toBe('--out is given twice: give it once');
  });

  it('says a value is missing in plain words', () => {
    expect(refusal(['in.jsonl', '--against'])).toBe(
      '--against needs a value (a value starting with a dash: --against=-VALUE)',
    );
    expect(refusal(['--against', '--out', 'x'])).toBe(
      '--against needs a value (a value starting with a dash: --against=-VALUE)',
    );
    expect(refusal(['--nope'])).toMatch(/Unknown option '--nope'/);
  });
});
