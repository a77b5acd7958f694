/**
 * MinHash signatures and LSH bands for near-duplicate detection.
 *
 * Written here rather than taken from a package: the npm MinHash packages
 * hash each shingle once per permutation and keep signatures as arrays of
 * objects, which is ~100x too slow and too big for a million rows; this one
 * hashes each shingle once and bins it (one-permutation hashing, Li, Owen &
 * Zhang 2012, with rotation densification, Shrivastava & Li 2014), so a
 * signature costs O(shingles), and writes into caller-owned typed arrays.
 *
 * Shingles are word bigrams (a single word for one-word texts): a 60-word
 * text with two words changed keeps a Jaccard similarity of ~0.87 over
 * bigrams (~0.81 over trigrams, ~0.70 over the 5-grams datatrove uses),
 * so the 0.8 default threshold finds it.
 */

/** Bins of a signature (a power of two). */
export const SIGNATURE_BINS = 128;
const BIN_SHIFT = 32 - Math.log2(SIGNATURE_BINS);
const EMPTY = 0xffffffff;

/** MurmurHash3's 32-bit finaliser: every input bit flips each output bit with probability 1/2. */
export function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** FNV-1a over UTF-16 code units with a seed, finalised: a 32-bit string hash. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/**
 * The bigram hashes of the first `count` word hashes of `hashes`, written
 * over them (each reads its word and the next before the next is
 * overwritten); returns how many (the one word's own hash for one word).
 */
export function shinglesInPlace(hashes: Uint32Array, count: number): number {
  if (count <= 1) return count;
  for (let i = 1; i < count; i++) {
    hashes[i - 1] = fmix32(Math.imul(hashes[i - 1] as number, 0x9e3779b1) ^ (hashes[i] as number));
  }
  return count - 1;
}

/** A second, independent hash of a word (another seed and multiplier), for 64-bit keys. */
export function hashString2(text: string): number {
  let h = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x5bd1e995);
  }
  return fmix32(h ^ text.length);
}

/** The distinct shingle hashes, sorted: the set whose Jaccard similarity is compared. */
export function shingleSet(words: readonly string[]): Uint32Array {
  return shingleSetOf(Uint32Array.from(words, (word) => hashString(word)));
}

/** `shingleSet` of the words' hashes (`hashString` of each, in order), which it overwrites. */
export function shingleSetOf(wordHashes: Uint32Array): Uint32Array {
  const hashes = wordHashes.subarray(0, shinglesInPlace(wordHashes, wordHashes.length)).sort();
  let n = 0;
  for (let i = 0; i < hashes.length; i++) {
    if (i === 0 || hashes[i] !== hashes[i - 1]) hashes[n++] = hashes[i] as number;
  }
  return hashes.subarray(0, n);
}

/** Jaccard similarity of two sorted sets (1 for two empty sets). */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      both++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return both / (a.length + b.length - both);
}

/**
 * The one-permutation MinHash signature of a shingle list into `out`
 * (SIGNATURE_BINS values): each shingle's hash picks a bin by its top bits
 * and competes there with a second hash; an empty bin takes the value of the
 * next filled bin to its right (circularly) plus a constant per step, so two
 * signatures agree in a bin with probability equal to the Jaccard similarity.
 * An empty text gets a signature of its own (all bins EMPTY).
 */
export function signatureInto(
  shingles: Uint32Array,
  out: Uint32Array,
  count = shingles.length,
): void {
  out.fill(EMPTY);
  for (let i = 0; i < count; i++) {
    const h = shingles[i] as number;
    const bin = h >>> BIN_SHIFT;
    const value = fmix32(h ^ 0x5bd1e995);
    if (value < (out[bin] as number)) out[bin] = value;
  }
  if (count === 0) return;
  // One pass leftwards from a filled bin: each empty bin takes the nearest filled bin to its right.
  let start = 0;
  while (out[start] === EMPTY) start++;
  let source = out[start] as number;
  let distance = 0;
  for (let step = 1; step < SIGNATURE_BINS; step++) {
    const bin = (start - step + SIGNATURE_BINS) % SIGNATURE_BINS;
    const value = out[bin] as number;
    if (value !== EMPTY) {
      source = value;
      distance = 0;
    } else {
      distance++;
      out[bin] = (source + Math.imul(distance, 0x9e3779b9)) >>> 0;
    }
  }
}

/** The banding of signatures for a similarity threshold. */
export interface Banding {
  bands: number;
  rows: number;
}

/**
 * The most selective banding (most rows per band) that still makes a pair at
 * the threshold a candidate with probability ≥ 0.985 (≥ 0.99 a little above
 * it): fewer false candidates to verify, almost no true pair missed (0.8
 * gives 18 bands of 7 rows).
 */
export function bandingFor(threshold: number): Banding {
  let best: Banding = { bands: SIGNATURE_BINS, rows: 1 };
  for (let rows = 1; rows <= 16; rows++) {
    const bands = Math.floor(SIGNATURE_BINS / rows);
    const candidate = 1 - (1 - threshold ** rows) ** bands;
    if (candidate >= 0.985) best = { bands, rows };
  }
  return best;
}

/**
 * The band hashes of a signature into `out` (one per band). A band takes
 * bins spread over the signature (band, band + bands, ...), not neighbours:
 * densification copies a bin's neighbour, so neighbouring bins of a short
 * text agree together and would make bands collide far more than J^rows.
 */
export function bandsInto(signature: Uint32Array, banding: Banding, out: Uint32Array): void {
  for (let band = 0; band < banding.bands; band++) {
    let h = 0x27d4eb2f ^ band;
    for (let row = 0; row < banding.rows; row++) {
      h = fmix32(Math.imul(h, 0x01000193) ^ (signature[band + row * banding.bands] as number));
    }
    out[band] = h;
  }
}
