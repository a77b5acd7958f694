import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONNECTIVES,
  ContentKind,
  contentKind,
  TWO_LETTER_WORDS,
  VOCABULARY,
} from './content-tokens.ts';
import { hashString } from './minhash.ts';
import { readRowWords } from './template-siblings.ts';

/**
 * The character tests of `contentKind` (one pass over a word) against the
 * patterns they stand for: digits and points alone are a number; else a
 * digit, a leading backslash or an underscore make a variable.
 */

/**
 * Words of the characters the tests tell apart, and others (letters that make
 * no English word, a non-ASCII digit, punctuation).
 */
const word = fc
  .array(fc.constantFrom('1', '0', '9', '.', '_', '\\', 'q', 'é', '٣', '-', ','), {
    minLength: 2,
    maxLength: 8,
  })
  .map((chars) => chars.join(''));

describe('contentKind', () => {
  it('reads numbers and variables as the patterns did', () => {
    fc.assert(
      fc.property(word, (w) => {
        const kind = contentKind([w], 0);
        if (/^[\d.]+$/.test(w)) expect(kind).toBe(ContentKind.number);
        else if (/\d/.test(w) || w.startsWith('\\') || w.includes('_')) {
          expect(kind).toBe(ContentKind.variable);
        } else {
          expect(kind).not.toBe(ContentKind.number);
          // Two letters that are no English word are a variable ("qq"); nothing longer is here.
          if (w.length > 2) expect(kind).toBe(ContentKind.prose);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('takes an empty word for prose, not a number', () => {
    expect(contentKind([''], 0)).toBe(ContentKind.prose);
  });
});

/**
 * The kind of a word as it was read before words were looked up by their
 * hashes: the vocabulary, the connectives and the English two-letter words
 * asked by the word's text, the character tests by patterns.
 */
function kindByText(words: readonly string[], at: number): ContentKind {
  const word = words[at] as string;
  const symbol = (w: string | undefined): boolean =>
    w !== undefined && w.length === 1 && !/[\p{L}\p{N}]/u.test(w);
  const logicOperand = (w: string | undefined): boolean =>
    w !== undefined &&
    (['true', 'false', 'not', '(', ')'].includes(w) ||
      (w.length === 1 && /\p{L}/u.test(w) && w !== 'a' && w !== 'i'));
  if (word.length === 1) {
    if (/\d/.test(word)) return ContentKind.number;
    if (symbol(word)) return ContentKind.symbol;
    if (word !== 'a' && word !== 'i') return ContentKind.variable;
    return symbol(words[at - 1]) || symbol(words[at + 1])
      ? ContentKind.variable
      : ContentKind.prose;
  }
  if (/^[\d.]+$/.test(word)) return ContentKind.number;
  if (CONNECTIVES.has(word) && (logicOperand(words[at - 1]) || logicOperand(words[at + 1]))) {
    return ContentKind.math;
  }
  if (
    at >= 2 &&
    words[at - 2] === 'how' &&
    (words[at - 1] === 'many' || words[at - 1] === 'much')
  ) {
    return ContentKind.unit;
  }
  if (/\d/.test(word) || word.startsWith('\\') || word.includes('_')) return ContentKind.variable;
  const known = VOCABULARY.get(word);
  if (known !== undefined) return known;
  return word.length === 2 && /^\p{L}+$/u.test(word) && !TWO_LETTER_WORDS.has(word)
    ? ContentKind.variable
    : ContentKind.prose;
}

const NAME = '\u0001';
const ASKED = '\u0002';

/** Words of every kind and context the reading tells apart, some marked as names or asked. */
const markedWords = fc.array(
  fc
    .tuple(
      fc.constantFrom('', '', '', NAME, ASKED, NAME + ASKED),
      fc.oneof(
        fc.constantFrom(...VOCABULARY.keys()),
        fc.constantFrom(...CONNECTIVES, ...TWO_LETTER_WORDS),
        fc.constantFrom('how', 'many', 'much', 'true', 'false', 'not', 'True', '(', ')', '+', '$'),
        fc.constantFrom('a', 'i', 'x', '7', '3.5', '.', 'x_1', '\\frac', 'ab', 'qq', 'é', '٣', ''),
        fc.string({
          unit: fc.constantFrom('a', 'n', 'd', 'o', 'r', '1', '.', '_', '\\', 'é'),
          maxLength: 5,
        }),
      ),
    )
    .map(([mark, word]) => mark + word),
  { maxLength: 30 },
);

describe('readRowWords', () => {
  it('reads each word as its text did: its hash, and its kind in context', () => {
    fc.assert(
      fc.property(markedWords, (marked) => {
        const read = readRowWords(marked);
        const words = marked.map((w) => {
          let from = 0;
          while (w[from] === NAME || w[from] === ASKED) from++;
          return w.slice(from);
        });
        expect(read.words).toEqual(words);
        words.forEach((word, i) => {
          const mark = marked[i] as string;
          expect(read.hashes[i]).toBe(hashString(word));
          const expected =
            mark.startsWith(ASKED) || mark.startsWith(NAME + ASKED)
              ? ContentKind.asked
              : mark.startsWith(NAME) && !['true', 'false', 'not'].includes(word)
                ? ContentKind.name
                : kindByText(words, i);
          expect(read.kinds[i]).toBe(expected);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('finds every word of the vocabulary, and nothing that only shares its hash slot', () => {
    for (const [word, kind] of VOCABULARY) expect(contentKind([word], 0)).toBe(kind);
    // Words that are not in it, of the lengths its words have.
    for (const word of ['sums', 'produc', 'twelv', 'zeros', 'colours', 'redd']) {
      expect(contentKind([word], 0)).toBe(ContentKind.prose);
    }
  });
});
