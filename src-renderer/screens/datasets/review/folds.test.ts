import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldsOf, hiddenRange, unifiedParts } from './folds.ts';

const lines = (n: number, line: (i: number) => string): string =>
  Array.from({ length: n }, (_, i) => line(i)).join('\n');

describe('folds of unchanged text', () => {
  it('a one-space fix in thirty lines keeps two lines either side and folds the rest', () => {
    const before = lines(30, (i) => (i === 19 ? 'Line 20 has a  double space.' : `Line ${i + 1}.`));
    const after = before.replace('a  double', 'a double');
    const folds = foldsOf(before, after);
    expect(folds.map((f) => f.label)).toEqual(['… 17 unchanged lines', '… 8 unchanged lines']);
    const [head, tail] = folds;
    expect(before.slice(0, head?.before[1])).toBe(lines(17, (i) => `Line ${i + 1}.`) + '\n');
    expect(before.slice(tail?.before[0])).toBe(`\n${lines(8, (i) => `Line ${i + 23}.`)}`);
  });

  it('one long line keeps a few words either side, counted in words', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    const before = words.join(' ');
    const after = before.replace('w100', 'W100');
    const folds = foldsOf(before, after);
    expect(folds.map((f) => f.label)).toEqual(['… 88 unchanged words', '… 87 unchanged words']);
  });

  it('shows a row with no fix whole, unless it is long', () => {
    const question = Array.from({ length: 52 }, (_, i) => `word${i}`).join(' ');
    expect(foldsOf(question, null)).toEqual([]);
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const [fold, ...rest] = foldsOf(long, null);
    expect(rest).toEqual([]);
    // Its head kept, the rest folded.
    expect(fold?.before[0]).toBeGreaterThan(0);
    expect(fold?.before[1]).toBe(long.length);
  });

  it('never folds a short stretch, nor over a range it is told to keep', () => {
    expect(hiddenRange('a few words only', true, true)).toBeNull();
    const before = lines(30, (i) => `Line ${i + 1}.`);
    const after = `${before}!`;
    expect(foldsOf(before, after)).toHaveLength(1);
    expect(foldsOf(before, after, { before: [[10, 12]], after: [] })).toHaveLength(0);
  });

  it('a fold hides the same text on both sides, never a changed word', () => {
    const word = fc.constantFrom('a', 'bb', 'ccc', ' ', '  ', '\n', 'dd');
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 300 }),
        fc.array(word, { maxLength: 300 }),
        (a, b) => {
          const before = a.join('');
          const after = b.join('');
          for (const fold of foldsOf(before, after)) {
            expect(before.slice(...fold.before)).toBe(after.slice(...fold.after));
            expect(fold.before[1]).toBeGreaterThan(fold.before[0]);
          }
          // The unified view reads the original back from its shared and removed parts.
          const parts = unifiedParts(before, after);
          expect(
            parts
              .filter((p) => p.kind !== 'added')
              .map((p) => p.text)
              .join(''),
          ).toBe(before);
          expect(
            parts
              .filter((p) => p.kind !== 'removed')
              .map((p) => p.text)
              .join(''),
          ).toBe(after);
        },
      ),
    );
  });
});
