import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grams } from './grams.ts';
import { hashWord, tokenize, tokenizeInto, TokenBuffer } from './tokens.ts';

const words = (text: string): string[] => {
  const t = tokenize(text);
  return Array.from(t.starts, (start, i) => text.slice(start, t.ends[i]));
};
const keys = (text: string, n: number): string[] => {
  const g = grams(tokenize(text), n);
  return Array.from(g.hi, (hi, i) => `${hi}:${g.lo[i]}`);
};

describe('contamination tokens', () => {
  it('keeps numbers and symbols as tokens, drops sentence punctuation', () => {
    expect(words('Find f(x) = 3x^2 + 1, for x ≥ 0.')).toEqual([
      'Find',
      'f',
      '(',
      'x',
      ')',
      '=',
      '3x',
      '^',
      '2',
      '+',
      '1',
      'for',
      'x',
      '≥',
      '0',
    ]);
    // Symbols tell apart what punctuation would merge.
    expect(keys('Q(sqrt(2), sqrt(3))', 3)).not.toEqual(keys('Q(sqrt(2)*sqrt(3))', 3));
  });

  it('reads in-word apostrophes as part of the word, either kind of quote', () => {
    expect(keys("Janet's ducks don't lay", 3)).toEqual(keys('Janet’s ducks dont lay', 3));
  });

  it('reads GSM8K calculator annotations as blank, keeping the offsets', () => {
    const text = 'She makes 9 * 2 = $<<9*2=18>>18 every day';
    expect(keys(text, 4)).toEqual(keys('She makes 9 * 2 = $18 every day', 4));
    expect(words(text)).toContain('18');
    const t = tokenize(text);
    expect(text.slice(t.starts[t.length - 1], t.ends[t.length - 1])).toBe('day');
  });

  it('gives the same n-grams whatever the case, spacing and sentence punctuation (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 8, maxLength: 30 }), fc.integer(), (list, seed) => {
        const plain = list.join(' ');
        let s = seed;
        const noisy = list
          .map((w) => {
            s = (Math.imul(s, 1103515245) + 12345) | 0;
            const pick = (s >>> 8) % 4;
            const cased = pick === 0 ? w.toUpperCase() : pick === 1 ? w.toLowerCase() : w;
            return cased + (pick === 2 ? ',' : pick === 3 ? '.' : '');
          })
          .join((s & 1) === 0 ? '  ' : '\n');
        expect(keys(noisy, 8)).toEqual(keys(plain, 8));
      }),
    );
  });

  it('keys differ with any one token changed (property)', () => {
    const word = fc.stringMatching(/^[a-z]{2,8}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 13, maxLength: 13 }),
        fc.nat(12),
        word,
        (list, at, other) => {
          fc.pre(list[at] !== other);
          const changed = [...list];
          changed[at] = other;
          expect(keys(changed.join(' '), 13)).not.toEqual(keys(list.join(' '), 13));
        },
      ),
    );
  });

  it('rolls the hash: each window keys the same as that window alone', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    const all = keys(text, 8);
    const list = text.split(' ');
    all.forEach((key, i) => expect(keys(list.slice(i, i + 8).join(' '), 8)).toEqual([key]));
    expect(keys('one two', 8)).toEqual([]);
  });
});

/** The definition the scanner implements, written the slow, obvious way. */
function reference(text: string): { range: [number, number]; word: string }[] {
  const source = text.replace(/<<[^<>\n]*>>/g, (m) => ' '.repeat(m.length));
  const token = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*|[\p{S}*/\\%#&()[\]{}]/gu;
  return [...source.matchAll(token)].map((m) => ({
    range: [m.index, m.index + m[0].length],
    word: m[0].replace(/['’]/g, '').normalize('NFKC').toLowerCase(),
  }));
}

describe('the tokenizer against its definition', () => {
  it('finds the same tokens, and equal words hash equal (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'Ça',
        'naïve',
        'ＡＢＣ',
        'don’t',
        "it's",
        '3.5',
        '½',
        '∑',
        '€',
        '😀',
        'é',
        '<<1+1=2>>',
        'x²',
      ),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.stringMatching(/^[A-Za-z0-9 .,'()+*/=-]{0,12}$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join(' ');
        const expected = reference(text);
        const t = tokenize(text);
        expect(Array.from(t.starts, (s, i) => [s, t.ends[i]])).toEqual(
          expected.map((e) => e.range),
        );
        // Each token hashes as its folded word, whichever path (ASCII as it comes, or whole).
        expected.forEach((e, i) => expect([t.a[i], t.b[i]]).toEqual(hashWord(e.word)));
      }),
      { numRuns: 300 },
    );
  });

  it('reads texts one after another into a buffer as tokenize reads each alone', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.stringMatching(/^[A-Za-z0-9 .,'<>=+]{0,60}$/),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { maxLength: 4 }), { maxLength: 4 }),
        fc.nat(8),
        (rows, capacity) => {
          // A small first capacity: the buffer grows in the middle of a row and keeps what it held.
          const buffer = new TokenBuffer(capacity);
          for (const fields of rows) {
            buffer.clear();
            const expected = {
              a: [] as number[],
              b: [] as number[],
              starts: [] as number[],
              ends: [] as number[],
            };
            for (const field of fields) {
              const alone = tokenize(field);
              expect(tokenizeInto(field, buffer)).toBe(alone.length);
              expected.a.push(...alone.a);
              expected.b.push(...alone.b);
              expected.starts.push(...alone.starts);
              expected.ends.push(...alone.ends);
            }
            const held = (array: Uint32Array): number[] =>
              Array.from(array.subarray(0, buffer.length));
            expect({
              a: held(buffer.a),
              b: held(buffer.b),
              starts: held(buffer.starts),
              ends: held(buffer.ends),
            }).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
