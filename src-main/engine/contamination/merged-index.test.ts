import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FingerprintSet } from './fingerprints.ts';
import { bucketBits, mergedIndex } from './match.ts';

/** A set of sorted entries; keys drawn from a few values so that buckets and equal keys recur. */
const set = (name: string): fc.Arbitrary<FingerprintSet> =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(0, 1, 0x80000000, 0xffffffff), fc.nat({ max: 0xffffffff })),
        fc.nat({ max: 7 }),
        fc.nat({ max: 1000 }),
      ),
      { maxLength: 300 },
    )
    .map((entries) => {
      // A set's keys are sorted (each set's own order kept for equal keys).
      const sorted = entries
        .map((entry, at) => ({ entry, at }))
        .sort((a, b) => a.entry[0] - b.entry[0] || a.entry[1] - b.entry[1] || a.at - b.at)
        .map(({ entry }) => entry);
      return {
        name,
        items: 1001,
        keys: Uint32Array.from(sorted.flatMap(([hi, lo]) => [hi, lo])),
        refs: Uint32Array.from(sorted.map(([, , ref]) => ref)),
        totals: new Uint16Array(0),
        sizes: new Uint8Array(0),
      };
    });

/** What the index must hold: every set's entries, sorted by key, equal keys in set order. */
function reference(sets: readonly FingerprintSet[]): { keys: number[]; refs: number[] } {
  const all = sets.flatMap((s, index) =>
    Array.from(s.refs, (ref, e) => ({
      hi: s.keys[2 * e] as number,
      lo: s.keys[2 * e + 1] as number,
      ref: ((index << 24) | ref) >>> 0,
    })),
  );
  // Array.prototype.sort is stable: equal keys stay in set order, then each set's own.
  all.sort((a, b) => a.hi - b.hi || a.lo - b.lo);
  return { keys: all.flatMap((e) => [e.hi, e.lo]), refs: all.map((e) => e.ref) };
}

describe('mergedIndex', () => {
  it("holds every set's entries sorted by key, equal keys in set order, and each bucket's start (property)", () => {
    fc.assert(
      fc.property(fc.array(set('s'), { maxLength: 7 }), (sets) => {
        const index = mergedIndex(sets);
        const expected = reference(sets);
        expect(Array.from(index.keys)).toEqual(expected.keys);
        expect(Array.from(index.refs)).toEqual(expected.refs);
        const total = expected.refs.length;
        expect(index.shift).toBe(32 - bucketBits(total));
        // A bucket's start is the first entry whose key's top bits are the bucket's.
        for (let e = 0; e < total; e++) {
          const prefix = (expected.keys[2 * e] as number) >>> index.shift;
          expect(index.starts[prefix]).toBeLessThanOrEqual(e);
          expect(index.starts[prefix + 1]).toBeGreaterThan(e);
        }
        expect(index.starts[index.starts.length - 1]).toBe(total);
      }),
      { numRuns: 200 },
    );
  });

  it('in shared memory is the same index, on SharedArrayBuffers (property)', () => {
    fc.assert(
      fc.property(fc.array(set('s'), { minLength: 1, maxLength: 4 }), (sets) => {
        const local = mergedIndex(sets);
        const shared = mergedIndex(sets, { shared: true });
        for (const part of ['keys', 'refs', 'starts', 'filter'] as const) {
          expect(shared[part].buffer).toBeInstanceOf(SharedArrayBuffer);
          expect(local[part].buffer).not.toBeInstanceOf(SharedArrayBuffer);
          const [a, b] = [shared[part], local[part]];
          expect(a.length).toBe(b.length);
          const bytes = (x: Uint32Array): Buffer =>
            Buffer.from(x.buffer, x.byteOffset, x.byteLength);
          expect(bytes(a).equals(bytes(b))).toBe(true);
        }
        expect(shared.shift).toBe(local.shift);
      }),
      { numRuns: 50 },
    );
  });
});
