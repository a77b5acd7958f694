import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildFingerprints, type EvalItem } from './build.ts';
import { decodeFingerprints, encodeFingerprints, forEachEntry } from './fingerprints.ts';
import { grams } from './grams.ts';
import { tokenize } from './tokens.ts';

const sentence = fc
  .array(fc.stringMatching(/^[a-z]{1,9}$/), { minLength: 0, maxLength: 40 })
  .map((w) => w.join(' '));
const item: fc.Arbitrary<EvalItem> = fc.record({ question: sentence, answer: sentence });

describe('fingerprint files', () => {
  it('read back exactly what was written (property)', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), (items) => {
        const [set] = buildFingerprints([{ name: 'x/test', items }]);
        const bytes = encodeFingerprints(set!);
        // Read from an offset that is not a multiple of 4: the reader copies then.
        const shifted = new Uint8Array(bytes.length + 1);
        shifted.set(bytes, 1);
        for (const source of [bytes, shifted.subarray(1)]) {
          const back = decodeFingerprints('x/test', source);
          expect(back.items).toBe(set!.items);
          expect([...back.keys]).toEqual([...set!.keys]);
          expect([...back.refs]).toEqual([...set!.refs]);
          expect([...back.totals]).toEqual([...set!.totals]);
          expect([...back.sizes]).toEqual([...set!.sizes]);
        }
      }),
    );
  });

  it('finds every n-gram of every item it was built from (property)', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 10 }), (items) => {
        const [set] = buildFingerprints([{ name: 'x/test', items }]);
        let found = 0;
        for (let e = 0; e < set!.refs.length; e++) {
          forEachEntry(set!, set!.keys[2 * e]!, set!.keys[2 * e + 1]!, (hit) => {
            if (hit === e) found++;
          });
        }
        expect(found).toBe(set!.refs.length);
      }),
    );
  });

  it('refuses bytes that are not a fingerprint file', () => {
    expect(() => decodeFingerprints('x', new Uint8Array(64))).toThrow(/not a fingerprint file/);
  });

  it('drops boilerplate: an n-gram in four items or more is nobody’s', () => {
    const preamble =
      'The following paragraphs each describe a set of objects arranged in a fixed order.';
    const items = ['red car', 'blue bus', 'green van', 'white cab'].map((thing, i) => ({
      question: `${preamble} In a show there are ${thing}s number ${i} standing in the lot today, and more.`,
    }));
    const [set] = buildFingerprints([{ name: 'bbh/test', items }]);
    const shared = grams(tokenize(preamble), 13);
    for (let i = 0; i < shared.hi.length; i++) {
      let hits = 0;
      forEachEntry(set!, shared.hi[i]!, shared.lo[i]!, () => hits++);
      expect(hits).toBe(0);
    }
    expect(set!.totals[0]).toBeGreaterThan(0);
  });
});
