/**
 * The words of a text as contamination matching reads them: lower-cased,
 * with numbers and symbols kept as tokens of their own, and the punctuation
 * a copy may change (full stops, commas, quotes, hyphens) dropped. GSM8K's
 * calculator annotations (`<<48/2=24>>`) are read as blank, so a copy with
 * or without them reads the same. Each token keeps its character range in
 * the original text, so a match can point at it.
 *
 * Written here rather than taken from a tokenizer library: matching needs a
 * normalization that is stable across re-casing, re-spacing and
 * re-punctuation, and BPE tokenizers are built for the opposite.
 */

/** GSM8K's calculator annotations. */
const ANNOTATION = /<<[^<>\n]*>>/g;
/**
 * A word (letters and digits, with in-word apostrophes) or one symbol that
 * carries meaning in maths and code: Unicode symbols (`+ = < > ^ $ |` ...)
 * and `* / \ % # & ( ) [ ] { }`.
 */
const TOKEN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*|[\p{S}*/\\%#&()[\]{}]/gu;
const APOSTROPHES = /['’]/g;
/** Plain ASCII needs no Unicode normalization (most tokens: skipping it halves the cost). */
const ASCII = /^[\x20-\x7e]*$/;

export interface Tokens {
  /** Two independent 32-bit hashes per token: lane A and lane B. */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  /** Each token's `[start, end)` character range in the text. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly length: number;
}

/** The tokens of `text`. */
export function tokenize(text: string): Tokens {
  const source = text.includes('<<') ? text.replace(ANNOTATION, (m) => ' '.repeat(m.length)) : text;
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const match of source.matchAll(TOKEN)) {
    const raw = match[0];
    const folded = ASCII.test(raw) ? raw.toLowerCase() : raw.normalize('NFKC').toLowerCase();
    words.push(
      folded.includes("'") || folded.includes('’') ? folded.replace(APOSTROPHES, '') : folded,
    );
    starts.push(match.index);
    ends.push(match.index + raw.length);
  }
  const a = new Uint32Array(words.length);
  const b = new Uint32Array(words.length);
  words.forEach((word, i) => {
    a[i] = hashA(word);
    b[i] = hashB(word);
  });
  return {
    a,
    b,
    starts: Uint32Array.from(starts),
    ends: Uint32Array.from(ends),
    length: words.length,
  };
}

/** FNV-1a over UTF-16 code units. */
function hashA(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h);
}

/** A second, independent hash (a different seed and multiplier), so a key is 64 bits wide. */
function hashB(word: string): number {
  let h = 0x9747b28c ^ word.length;
  for (let i = 0; i < word.length; i++) {
    h = Math.imul(h ^ word.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  return fmix(h);
}

/** Murmur3's finalizer: every input bit reaches every output bit. */
export function fmix(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
