/**
 * The words of a text as `wordsOf` reads them (lower-cased runs of
 * `[\p{L}\p{N}']`), numbered in order of first appearance, in one pass over
 * the char codes: no string per word and no Map keyed by strings, which cost
 * the n-gram rule more than its counting did. A word's id is found by a
 * 32-bit hash of its chars and confirmed by comparing them, so ids are exact.
 */

const WORD_CHAR = /[\p{L}\p{N}']/u;

/** `WORD_CHAR` for every BMP code unit (lone surrogates are not word chars, as in the regex). */
const BMP = new Uint8Array(65536);
for (let code = 0; code < 65536; code++) {
  if (code < 0xd800 || code > 0xdfff) BMP[code] = WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 0;
}
const astral = new Map<number, boolean>();
function isAstralWordChar(codePoint: number): boolean {
  let is = astral.get(codePoint);
  if (is === undefined) {
    is = WORD_CHAR.test(String.fromCodePoint(codePoint));
    astral.set(codePoint, is);
  }
  return is;
}

export interface WordIds {
  /** The lower-cased text the words are read from. */
  lower: string;
  count: number;
  ids: Int32Array;
  starts: Int32Array;
  lengths: Int32Array;
}

let slotIds = new Int32Array(1024).fill(-1);
let slotHashes = new Int32Array(1024);

function sameChars(text: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) {
    if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  }
  return true;
}

let ids = new Int32Array(1024);
let starts = new Int32Array(1024);
let lengths = new Int32Array(1024);

/**
 * The words of `text`. The arrays are reused by the next call (the n-gram
 * rule reads them at once), so a text costs no allocation but its lower case.
 */
export function wordIds(text: string): WordIds {
  const lower = text.toLowerCase();
  const capacity = (lower.length >> 1) + 1;
  if (ids.length < capacity) {
    const grown = Math.max(capacity, ids.length * 2);
    ids = new Int32Array(grown);
    starts = new Int32Array(grown);
    lengths = new Int32Array(grown);
  }
  let size = 16;
  while (size < capacity * 2) size *= 2;
  if (slotIds.length < size) {
    slotIds = new Int32Array(size);
    slotHashes = new Int32Array(size);
  }
  slotIds.fill(-1, 0, size);
  const mask = size - 1;
  // First position of each id, to confirm a hash match.
  const firstOf: number[] = [];
  let count = 0;
  let start = -1;
  let hash = 0;
  const end = lower.length;
  for (let i = 0; i <= end;) {
    let width = 1;
    let word = false;
    if (i < end) {
      const code = lower.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < end) {
        const low = lower.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          width = 2;
          word = isAstralWordChar(((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
        }
      } else word = BMP[code] === 1;
    }
    if (word) {
      if (start < 0) {
        start = i;
        hash = 0x811c9dc5 | 0;
      }
      for (let k = 0; k < width; k++) hash = Math.imul(hash ^ lower.charCodeAt(i + k), 0x01000193);
    } else if (start >= 0) {
      const length = i - start;
      let slot = (Math.imul(hash, 0x9e3779b1) >>> 0) & mask;
      let id = -1;
      for (;;) {
        const candidate = slotIds[slot] ?? -1;
        if (candidate < 0) break;
        if (slotHashes[slot] === hash) {
          const first = firstOf[candidate] ?? 0;
          if (
            (lengths[first] ?? 0) === length &&
            sameChars(lower, starts[first] ?? 0, start, length)
          ) {
            id = candidate;
            break;
          }
        }
        slot = (slot + 1) & mask;
      }
      if (id < 0) {
        id = firstOf.length;
        firstOf.push(count);
        slotIds[slot] = id;
        slotHashes[slot] = hash;
      }
      ids[count] = id;
      starts[count] = start;
      lengths[count] = length;
      count++;
      start = -1;
    }
    i += width;
  }
  return { lower, count, ids, starts, lengths };
}
