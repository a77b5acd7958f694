import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentKind, contentKind } from './content-tokens.ts';

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
