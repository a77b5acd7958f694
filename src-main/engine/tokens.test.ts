import { createRequire } from 'node:module';
import type * as GptTokenizer from 'gpt-tokenizer';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  commonsenseQa,
  ftfyCases,
  gsm8k,
  hellaswag,
  oasst,
  truthfulQa,
} from './testing/real-data.ts';
import { countTextsAhead, countTextTokens, countTokens } from './tokens.ts';

/**
 * The tokenizer package, what the counts must equal: a text that spells a
 * special token counted as text (the package refuses it unless told so).
 */
const bpe = createRequire(import.meta.url)('gpt-tokenizer') as typeof GptTokenizer;
const countBpeTokens = (text: string): number =>
  bpe.countTokens(text, { disallowedSpecial: new Set() });

/** Every pre-token merged (bpe/count.ts): what the byte-pair merge is given. */
const seen: string[] = [];
vi.mock('./bpe/count.ts', async (original) => {
  const { preTokenCount } = await original<typeof import('./bpe/count.ts')>();
  return {
    preTokenCount: (...args: Parameters<typeof preTokenCount>) => {
      seen.push(args[1]);
      return preTokenCount(...args);
    },
  };
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

  it('never merges a run of letters longer than a few hundred characters', () => {
    // BPE is quadratic in such a run (160k letters took 24 s); how long it takes is
    // for the benchmarks, what the merge is given is checked here.
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
    // Each text and each candidate has a word of its own, which the tokenizer sees when it counts it.
    const word = (prefix: string, i: number): string =>
      prefix + randomText(8, 'abcdefghijklmnopqrstuvwxyz', i + 1);
    const texts = [
      `${'word '.repeat(200)}${word('ahead', 0)}`,
      `DNA: ${randomText(5_000, 'ACGT')} ${word('ahead', 1)} end.`,
      ...gsm8k()
        .slice(0, 40)
        .map((s, i) => `${s.question}\n${s.answer} (${word('ahead', i + 2)})`),
    ];
    countTextsAhead(texts);
    seen.length = 0;
    const counts: number[] = [];
    texts.forEach((text, i) => {
      counts.push(countTextTokens(text));
      // A fix's candidates, counted between the samples read ahead.
      countTextTokens(`candidate ${word('fixq', i)}`);
    });
    expect(seen.filter((piece) => piece.includes('ahead'))).toEqual([]);
    expect(seen.filter((piece) => piece.includes('fixq'))).toEqual(
      texts.map((_, i) => ` ${word('fixq', i)}`),
    );
    expect(counts).toEqual(texts.map((text) => countTokens(text)));
  });

  it('counts pre-token by pre-token exactly as the tokenizer counts a whole text', () => {
    const real = [
      ...gsm8k().flatMap((s) => [s.question, s.answer]),
      ...[...hellaswag(), ...truthfulQa(), ...commonsenseQa()].flatMap((s) => [
        s.context,
        ...s.choices,
      ]),
      ...oasst().flatMap((c) => c.messages.map((m) => m.content)),
      ...ftfyCases().wild.map((c) => c.original),
    ];
    // Every class the pre-token pattern tells apart: cases, marks, numbers, contractions,
    // spaces before and between line ends, symbols, other scripts, emoji, lone surrogates,
    // byte order marks (nine tokens begin with one, which the package never finds).
    const alphabet =
      'aZ ,.\'sSdDmMtTlLvVrReE\n\r\t0123456789Ǆǅ\u0301\u0308ßÉéΣσЖжあ漢字ع٣\u00a0\u2003/_-+*()[]{}<|>"😀\ud800\udc00\ufeff';
    const random = Array.from({ length: 400 }, (_, i) =>
      randomText(1 + ((i * 37) % 300), alphabet, i + 11),
    );
    const edges = [
      'a  b',
      'a \n b',
      '  \n\n  x',
      'end   ',
      " don't DON'T they'll",
      '<|not special|>',
      'x<|',
      '\ufeffusing System;',
      '\ufeff\n\nnamespace',
      '\ufeffnamespace x',
      'a\ufeff',
    ];
    for (const text of [...real, ...random, ...edges]) {
      if (text.length > 512) continue;
      expect([text, countTokens(text)]).toEqual([text, countBpeTokens(text)]);
    }
  });

  it('counts any string as the tokenizer does', () => {
    const unit = fc.oneof(
      fc.constantFrom(..."ab Z9 \n\t.,'-é漢😀<|>\ufeff".split('')),
      fc
        .constantFrom('grapheme', 'binary')
        .chain((kind) => fc.string({ unit: kind, maxLength: 3 })),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(countTokens(text)).toBe(countBpeTokens(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('counts the text of a special token as text, as the API reads a message', () => {
    // Chat templates in training data: the tokenizer refuses these unless told otherwise, and
    // every audit of a sample holding one failed.
    for (const text of [
      'a <|endoftext|> b',
      '<|im_start|>user\nHello<|im_end|>',
      '<|fim_prefix|>def f():<|fim_suffix|>',
    ]) {
      expect(countTokens(text)).toBe(countBpeTokens(text));
      expect(countTokens(text)).toBeGreaterThan(3);
    }
  });
});
