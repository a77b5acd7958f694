import { fmix, type Tokens } from './tokens.ts';

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

/** The n-grams of `tokens` (none when there are fewer than `n`). */
export function grams(tokens: Tokens, n: number): Grams {
  const count = Math.max(0, tokens.length - n + 1);
  const hi = new Uint32Array(count);
  const lo = new Uint32Array(count);
  if (count === 0) return { hi, lo, n };
  const topA = power(PA, n - 1);
  const topB = power(PB, n - 1);
  const seedA = fmix(n * 0x9e3779b9);
  const seedB = fmix(n * 0x85ebca6b + 1);
  let ha = 0;
  let hb = 0;
  for (let k = 0; k < n; k++) {
    ha = (Math.imul(ha, PA) + (tokens.a[k] as number)) | 0;
    hb = (Math.imul(hb, PB) + (tokens.b[k] as number)) | 0;
  }
  for (let i = 0; ; i++) {
    hi[i] = fmix(ha ^ seedA);
    lo[i] = fmix(hb ^ seedB);
    if (i + 1 >= count) break;
    ha =
      (Math.imul(ha - Math.imul(tokens.a[i] as number, topA), PA) + (tokens.a[i + n] as number)) |
      0;
    hb =
      (Math.imul(hb - Math.imul(tokens.b[i] as number, topB), PB) + (tokens.b[i + n] as number)) |
      0;
  }
  return { hi, lo, n };
}
