import { createRequire } from 'node:module';
import type * as GptTokenizer from 'gpt-tokenizer';
import { describe, expect, it, vi } from 'vitest';
import { gsm8k } from './testing/real-data.ts';
import { countTextsAhead, countTextTokens, countTokens } from './tokens.ts';

/** The tokenizer as tokens.ts loads it (its CommonJS build, on first count). */
const bpe = createRequire(import.meta.url)('gpt-tokenizer') as typeof GptTokenizer;
const countBpeTokens = bpe.countTokens;

/** Every text the tokenizer is given. */
const seen: string[] = [];
vi.spyOn(bpe, 'countTokens').mockImplementation((input) => {
  if (typeof input === 'string') seen.push(input);
  return countBpeTokens(input);
});

/** A deterministic pseudo-random string (no Math.random: the test must not flake). */
function randomText(length: number, alphabet: string, seed = 7): string {
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    out += alphabet[(state >>> 16) % alphabet.length] ?? '';
  }
  return out;
}

describe('countTokens', () => {
  it('counts ordinary text exactly as the tokenizer does', () => {
    for (const { question, answer } of gsm8k().slice(0, 50)) {
      const text = `${question}\n${answer}\n`.repeat(3);
      expect(countTokens(text)).toBe(countBpeTokens(text));
      expect(countTokens(question)).toBe(countBpeTokens(question));
    }
  });

  it('never hands the tokenizer a run of letters longer than a few hundred characters', () => {
    // BPE is quadratic in such a run (160k letters took 24 s); how long it takes is
    // for the benchmarks, what the tokenizer is given is checked here.
    seen.length = 0;
    const count = countTokens(`DNA: ${randomText(320_000, 'ACGT')} and more text.`);
    expect(count).toBeGreaterThan(100_000);
    const longest = Math.max(
      ...seen.flatMap((text) => (text.match(/\S+/g) ?? []).map((r) => r.length)),
    );
    expect(longest).toBeLessThanOrEqual(400);
  });

  it('stays within a fraction of a percent of the exact count on long runs', () => {
    for (const alphabet of ['ACGT', 'abcdefghijklmnopqrstuvwxyz', 'abcXYZ0123456789+/=']) {
      const text = `Sequence: ${randomText(12_000, alphabet)} end.`;
      const exact = countBpeTokens(text);
      expect(Math.abs(countTokens(text) - exact) / exact).toBeLessThan(0.01);
    }
  });

  it('counts a sample text exactly as countTokens does, short, long or with long runs', () => {
    const texts = [
      '',
      'short',
      'word '.repeat(200),
      `x${'a'.repeat(450)} tail`,
      `DNA: ${randomText(5_000, 'ACGT')} end.`,
      ...gsm8k().map((s) => s.answer),
    ];
    for (const text of texts) {
      expect(countTextTokens(text)).toBe(countTokens(text));
      expect(countTextTokens(text)).toBe(countTokens(text));
    }
  });

  it('counts texts read ahead in one go, the same counts, however many others come between', () => {
    const texts = [
      'word '.repeat(200),
      `DNA: ${randomText(5_000, 'ACGT')} end.`,
      ...gsm8k()
        .slice(0, 40)
        .map((s) => `${s.question}\n${s.answer} (read ahead)`),
    ];
    countTextsAhead(texts);
    seen.length = 0;
    const counts: number[] = [];
    texts.forEach((text, i) => {
      counts.push(countTextTokens(text));
      // A fix's candidates, counted between the samples read ahead.
      countTextTokens(`candidate ${i}`);
    });
    expect(seen).toEqual(texts.map((_, i) => `candidate ${i}`));
    expect(counts).toEqual(texts.map((text) => countTokens(text)));
  });
});
