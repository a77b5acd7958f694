import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchFold } from './search-fold.ts';

describe('searchFold', () => {
  it('lowercases and writes typographic quotes as ASCII ones', () => {
    expect(searchFold('Janet’s “Best” ducks')).toBe('janet\'s "best" ducks');
    expect(searchFold('‘Tis ‛so’ „here‟ ＇a＇ ＂b＂ Oʼclock')).toBe(
      `'tis 'so' "here" 'a' "b" o'clock`,
    );
    // Other punctuation is left as it is: a dash is not a hyphen to a search.
    expect(searchFold('A – B — C ‹d› «e»')).toBe('a – b — c ‹d› «e»');
  });

  it('changes no length but lowercasing does, and is the same done twice', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const folded = searchFold(text);
        expect(folded.length).toBe(text.toLowerCase().length);
        expect(searchFold(folded)).toBe(folded);
      }),
      { numRuns: 2000 },
    );
  });
});
