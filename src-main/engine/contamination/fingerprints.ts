/**
 * A fingerprint set: the hashed n-grams of one evaluation set's items (a
 * benchmark's test split, or a user's eval file), sorted by key so a lookup
 * is a binary search over typed arrays: nothing to build when it loads.
 *
 * Each entry is one n-gram of one part of one item: the question (part 0) or
 * the answer (part 1). `totals` counts each part's n-grams, so a match can
 * say which share of the item a row holds.
 */
export interface FingerprintSet {
  /** `gsm8k/test`, or the eval file's name. */
  readonly name: string;
  /** The items the set was built from (the file's lines). */
  readonly items: number;
  /** Keys, sorted: `[hi0, lo0, hi1, lo1, ...]`. */
  readonly keys: Uint32Array;
  /** Per entry: `item << 1 | part`. */
  readonly refs: Uint32Array;
  /** Per item: `[question n-grams, answer n-grams]`. */
  readonly totals: Uint16Array;
  /** Per item: the n-gram size of its question and of its answer (0: too short to match). */
  readonly sizes: Uint8Array;
}

export const QUESTION = 0;
export const ANSWER = 1;

/** The first entry of sorted `keys` (`[hi0, lo0, ...]`) not below (hi, lo), in [0, entries]. */
export function lowerBound(keys: Uint32Array, hi: number, lo: number): number {
  let low = 0;
  let high = keys.length >>> 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const h = keys[2 * mid] as number;
    if (h < hi || (h === hi && (keys[2 * mid + 1] as number) < lo)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Calls `visit` with each entry whose key is (hi, lo). */
export function forEachEntry(
  set: FingerprintSet,
  hi: number,
  lo: number,
  visit: (entry: number) => void,
): void {
  const entries = set.keys.length >>> 1;
  for (let e = lowerBound(set.keys, hi, lo); e < entries; e++) {
    if (set.keys[2 * e] !== hi || set.keys[2 * e + 1] !== lo) return;
    visit(e);
  }
}

const MAGIC = 0x46435653; // 'SVCF'
const VERSION = 1;
const HEADER_WORDS = 4;

/** The set as bytes: a header, then keys, refs, totals and sizes (little-endian). */
export function encodeFingerprints(set: FingerprintSet): Uint8Array {
  const entries = set.refs.length;
  const words =
    HEADER_WORDS +
    entries * 3 +
    Math.ceil((set.items * 2 * 2) / 4) +
    Math.ceil((set.items * 2) / 4);
  const out = new Uint32Array(words);
  out.set([MAGIC, VERSION, entries, set.items]);
  out.set(set.keys, HEADER_WORDS);
  out.set(set.refs, HEADER_WORDS + entries * 2);
  const bytes = new Uint8Array(out.buffer);
  const totalsAt = (HEADER_WORDS + entries * 3) * 4;
  new Uint16Array(out.buffer, totalsAt, set.items * 2).set(set.totals);
  const sizesAt = totalsAt + Math.ceil((set.items * 2 * 2) / 4) * 4;
  bytes.set(set.sizes, sizesAt);
  return bytes;
}

/** A set read back from `encodeFingerprints`' bytes (views over them, not copies, when aligned). */
export function decodeFingerprints(name: string, source: Uint8Array): FingerprintSet {
  const bytes = source.byteOffset % 4 === 0 ? source : source.slice();
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS);
  if (header[0] !== MAGIC || header[1] !== VERSION) {
    throw new Error(`${name}: not a fingerprint file of version ${VERSION}`);
  }
  const entries = header[2] as number;
  const items = header[3] as number;
  const at = (word: number): number => bytes.byteOffset + word * 4;
  const keys = new Uint32Array(bytes.buffer, at(HEADER_WORDS), entries * 2);
  const refs = new Uint32Array(bytes.buffer, at(HEADER_WORDS + entries * 2), entries);
  const totalsAt = at(HEADER_WORDS + entries * 3);
  const totals = new Uint16Array(bytes.buffer, totalsAt, items * 2);
  const sizes = new Uint8Array(
    bytes.buffer,
    totalsAt + Math.ceil((items * 2 * 2) / 4) * 4,
    items * 2,
  );
  return { name, items, keys, refs, totals, sizes };
}
