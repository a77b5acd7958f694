import { RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import { describe, expect, it } from 'vitest';
import { gsm8k, oasst } from '../../testing/real-data.ts';
import { mayBeBlacklisted } from './safety.ts';

/**
 * The profanity rule's first test must never miss a word that obscenity's
 * matcher matches: checked on the words of real data, leetspeak spellings of
 * them and of profanities, and repeated letters.
 */
const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

function words(): string[] {
  const all = new Set<string>();
  const texts = [
    ...oasst().flatMap((c) => c.messages.map((m) => m.content)),
    ...gsm8k().map((s) => s.answer),
  ];
  for (const text of texts) {
    for (const w of text.toLowerCase().split(/[^a-z0-9@$*!]+/)) if (w.length >= 3) all.add(w);
  }
  const leet = (w: string): string =>
    w.replace(/a/g, '@').replace(/s/g, '$').replace(/i/g, '!').replace(/o/g, '0');
  for (const w of [...all].slice(0, 4000)) {
    all.add(leet(w));
    all.add(w.replace(/(.)/, '$1$1$1'));
  }
  for (const w of [
    'fuck',
    'shit',
    'cunt',
    'bitch',
    'asshole',
    'f*ck',
    'sh!t',
    'fuuuuck',
    'b1tch',
  ]) {
    all.add(w);
    all.add(leet(w));
  }
  return [...all];
}

describe('the profanity prefilter', () => {
  it('passes every word the matcher matches, and stops most others', () => {
    let passed = 0;
    for (const word of words()) {
      const pre = mayBeBlacklisted(word);
      if (matcher.getAllMatches(word).length > 0) expect(pre, word).toBe(true);
      if (pre) passed++;
    }
    expect(mayBeBlacklisted('table')).toBe(false);
    expect(mayBeBlacklisted('sh!t')).toBe(true);
    expect(passed).toBeLessThan(1000);
  }, 60_000);
});
