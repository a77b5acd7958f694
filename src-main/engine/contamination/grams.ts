import { fmix32 as fmix } from '../dataset/minhash.ts';
import type { Tokens } from './tokens.ts';

/**
 * Hashed word n-grams: each window of `n` tokens becomes a 64-bit key (two
 * 32-bit lanes, `hi` and `lo`), computed by a rolling polynomial hash so a
 * text of L tokens costs O(L) whatever `n`. Keys of different `n` never
 * meet: `n` seeds the final mix.
 */

const PA = 0x2f0b3c4d | 1;
const PB = 0x6b43a9b5 | 1;

export interface Grams {
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  /** The window of gram `i` is tokens `[i, i + n)`. */
  readonly n: number;
}

const power = (base: number, exponent: number): number => {
  let out = 1;
  for (let i = 0; i < exponent; i++) out = Math.imul(out, base);
  return out;
};

/**
 * Writes the key of each window of `n` tokens into `hi` and `lo` (from 0,
 * in order: entry `i` is the window starting at token `i`) and returns how
 * many. The arrays must hold `tokens.length` entries; the matcher reuses one
 * pair for every row.
 */
export function gramsInto(tokens: Tokens, n: number, hi: Uint32Array, lo: Uint32Array): number {
  const count = tokens.length - n + 1;
  if (count <= 0) return 0;
  const { a, b } = tokens;
  const topA = power(PA, n - 1);
  const topB = power(PB, n - 1);
  const seedA = fmix(Math.imul(n, 0x9e3779b9));
  const seedB = fmix((Math.imul(n, 0x85ebca6b) + 1) | 0);
  let ha = 0;
  let hb = 0;
  for (let k = 0; k < n; k++) {
    ha = (Math.imul(ha, PA) + (a[k] as number)) | 0;
    hb = (Math.imul(hb, PB) + (b[k] as number)) | 0;
  }
  for (let i = 0; ; i++) {
    hi[i] = fmix(ha ^ seedA);
    lo[i] = fmix(hb ^ seedB);
    if (i + 1 >= count) return count;
    ha = (Math.imul(ha - Math.imul(a[i] as number, topA), PA) + (a[i + n] as number)) | 0;
    hb = (Math.imul(hb - Math.imul(b[i] as number, topB), PB) + (b[i + n] as number)) | 0;
  }
}

/** The n-grams of `tokens` (none when there are fewer than `n`). */
export function grams(tokens: Tokens, n: number): Grams {
  const count = Math.max(0, tokens.length - n + 1);
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  gramsInto(tokens, n, hi, lo);
  return { hi, lo, n };
}
