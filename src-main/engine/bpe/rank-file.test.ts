import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { O200K_RANK_FILE, o200kTable } from './o200k.ts';
import { o200kTokenBytes } from './package-ranks.ts';
import { decodeRankFile, encodeRankFile } from './rank-file.ts';
import { RankTable } from './rank-table.ts';

const repo = join(import.meta.dirname, '..', '..', '..');
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('the shipped rank file', () => {
  it("is the tokenizer package's vocabulary as installed (else: node scripts/build-token-ranks.ts)", () => {
    const shipped = readFileSync(join(repo, O200K_RANK_FILE));
    expect(Buffer.compare(shipped, encodeRankFile(o200kTokenBytes()))).toBe(0);
  });

  it('finds every token by its bytes, at its rank, but the nine the package cannot find', () => {
    const tokens = o200kTokenBytes();
    const table = o200kTable();
    expect(table.size).toBe(tokens.length);
    const missing: number[] = [];
    tokens.forEach((token, rank) => {
      if (token.length === 0) missing.push(rank);
      else expect(table.rankOf(token, 0, token.length)).toBe(rank);
    });
    expect(missing).toHaveLength(9);
  });
});

describe('a rank file and its table', () => {
  const vocabulary = fc.uniqueArray(fc.uint8Array({ minLength: 1, maxLength: 6 }), {
    selector: hex,
    maxLength: 200,
  });

  it('read back the tokens written, in order', () => {
    fc.assert(
      fc.property(vocabulary, (tokens) => {
        const { bytes, starts } = decodeRankFile(encodeRankFile(tokens));
        const read = tokens.map((_, rank) => bytes.slice(starts[rank], starts[rank + 1]));
        expect(read.map(hex)).toEqual(tokens.map(hex));
      }),
    );
  });

  it('find a byte string at its rank, anywhere in a longer array, and nothing else', () => {
    fc.assert(
      fc.property(
        vocabulary,
        fc.array(fc.uint8Array({ maxLength: 6 }), { maxLength: 50 }),
        fc.nat(4),
        (tokens, probes, pad) => {
          const table = RankTable.build(decodeRankFile(encodeRankFile(tokens)));
          const byHex = new Map(tokens.map((token, rank) => [hex(token), rank]));
          for (const probe of [...tokens, ...probes]) {
            const padded = new Uint8Array(pad + probe.length + 2).fill(7);
            padded.set(probe, pad);
            const expected = probe.length === 0 ? -1 : (byHex.get(hex(probe)) ?? -1);
            expect(table.rankOf(padded, pad, pad + probe.length)).toBe(expected);
          }
        },
      ),
    );
  });

  it('built in shared memory and adopted from its parts, finds what the table built here finds', () => {
    fc.assert(
      fc.property(
        vocabulary,
        fc.array(fc.uint8Array({ maxLength: 6 }), { maxLength: 30 }),
        (tokens, probes) => {
          const ranks = decodeRankFile(encodeRankFile(tokens));
          const here = RankTable.build(ranks);
          const shared = RankTable.build(ranks, { shared: true });
          const { bytes, starts, slots } = shared.parts;
          for (const part of [bytes, starts, slots]) {
            expect(part.buffer).toBeInstanceOf(SharedArrayBuffer);
          }
          const adopted = RankTable.of(shared.parts);
          for (const probe of [...tokens, ...probes]) {
            const rank = here.rankOf(probe, 0, probe.length);
            expect(adopted.rankOf(probe, 0, probe.length)).toBe(rank);
            expect(shared.rankOf(probe, 0, probe.length)).toBe(rank);
          }
        },
      ),
    );
    expect(() =>
      RankTable.of({
        ...RankTable.build(decodeRankFile(encodeRankFile([]))).parts,
        slots: new Int32Array(3),
      }),
    ).toThrow(/power of two/);
  });

  it('refuses a file that is not one', () => {
    expect(() => decodeRankFile(new Uint8Array([1, 2, 3]))).toThrow(/not a BPE rank file/);
    const file = encodeRankFile([new Uint8Array([1, 2])]);
    expect(() => decodeRankFile(file.subarray(0, file.length - 1))).toThrow(/wrong length/);
  });
});
