import { fmix32 as fmix } from '../dataset/minhash.ts';

/**
 * The words of a text as contamination matching reads them: lower-cased,
 * with numbers and symbols kept as tokens of their own, and the punctuation
 * a copy may change (full stops, commas, quotes, hyphens) dropped. GSM8K's
 * calculator annotations (`<<48/2=24>>`) are read as blank, so a copy with
 * or without them reads the same. Each token keeps its character range in
 * the original text, so a match can point at it.
 *
 * - A word is a run of letters, digits and combining marks; an apostrophe
 *   between two of them joins them (`don't` reads `dont`).
 * - A symbol token is one Unicode symbol (`+ = < > ^ $ | ≤ €`...) or one of
 *   `* / \ % # & ( ) [ ] { }`, which carry meaning in maths and code.
 *
 * Written here rather than taken from a tokenizer library: matching needs a
 * normalization that is stable across re-casing, re-spacing and
 * re-punctuation, and BPE tokenizers are built for the opposite. It scans
 * character codes and hashes words as it goes (no string per ASCII word): a
 * regular expression and a string per token cost three times as much, and
 * every row of every run is read.
 */

export interface Tokens {
  /** Two independent 32-bit hashes per token: lane A and lane B. */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  /** Each token's `[start, end)` character range in the text. */
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  readonly length: number;
}

const OTHER = 0;
const WORD = 1;
const SYMBOL = 2;
const APOSTROPHE = 3;

/** What each ASCII character is. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9]/.test(ch)) ASCII_CLASS[c] = WORD;
  else if (/[*/\\%#&()[\]{}+=<>^$|~`]/.test(ch)) ASCII_CLASS[c] = SYMBOL;
  else if (ch === "'") ASCII_CLASS[c] = APOSTROPHE;
}
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const SYMBOL_CHAR = /\p{S}/u;
const classCache = new Map<number, number>();

/** What a character (a code unit, or a surrogate pair's code point) is. */
function classOf(code: number): number {
  if (code < 128) return ASCII_CLASS[code] as number;
  if (code === 0x2019) return APOSTROPHE;
  let known = classCache.get(code);
  if (known === undefined) {
    const ch = String.fromCodePoint(code);
    known = WORD_CHAR.test(ch) ? WORD : SYMBOL_CHAR.test(ch) ? SYMBOL : OTHER;
    if (classCache.size < 65_536) classCache.set(code, known);
  }
  return known;
}

/** GSM8K's calculator annotations. */
const ANNOTATION = /<<[^<>\n]*>>/g;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const B_SEED = 0x9747b28c;
const B_PRIME = 0x5bd1e995;

/**
 * A run of tokens that grows as texts are read into it (`tokenizeInto`): the
 * matcher reads every field of a row into one and reuses it row after row.
 * Its arrays are longer than `length`; only the first `length` entries are
 * tokens. A typed array of more than 64 bytes has its memory outside V8's
 * heap, so four new arrays per text cost as much as reading the text.
 */
export class TokenBuffer implements Tokens {
  a: Uint32Array;
  b: Uint32Array;
  starts: Uint32Array;
  ends: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.a = new Uint32Array(capacity);
    this.b = new Uint32Array(capacity);
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
  }

  /** Makes room for `extra` more tokens after the ones held, keeping them. */
  reserve(extra: number): void {
    const wanted = this.length + extra;
    if (this.a.length >= wanted) return;
    const size = Math.max(wanted, this.a.length * 2);
    const grow = (old: Uint32Array): Uint32Array => {
      const next = new Uint32Array(size);
      next.set(old.subarray(0, this.length));
      return next;
    };
    this.a = grow(this.a);
    this.b = grow(this.b);
    this.starts = grow(this.starts);
    this.ends = grow(this.ends);
  }

  clear(): void {
    this.length = 0;
  }
}

/** For `tokenize`: a text's tokens are read here, then copied out. */
const scratch = new TokenBuffer(4096);

/** The tokens of `text`, in arrays of their own. */
export function tokenize(text: string): Tokens {
  scratch.clear();
  const count = tokenizeInto(text, scratch);
  return {
    a: scratch.a.slice(0, count),
    b: scratch.b.slice(0, count),
    starts: scratch.starts.slice(0, count),
    ends: scratch.ends.slice(0, count),
    length: count,
  };
}

/**
 * Appends the tokens of `text` to `out` (their ranges are the text's own
 * characters) and returns how many.
 */
export function tokenizeInto(text: string, out: TokenBuffer): number {
  const source = text.includes('<<') ? text.replace(ANNOTATION, (m) => ' '.repeat(m.length)) : text;
  const length = source.length;
  // At most one token per character.
  out.reserve(length);
  const { a, b, starts, ends } = out;
  const first = out.length;
  let count = first;
  let i = 0;
  while (i < length) {
    let code = source.charCodeAt(i);
    let width = 1;
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < length) {
      code = source.codePointAt(i) as number;
      width = 2;
    }
    const kind = code < 128 ? (ASCII_CLASS[code] as number) : classOf(code);
    if (kind === SYMBOL) {
      const symbol = String.fromCodePoint(code);
      const [ha, hb] = hashWord(code < 128 ? symbol : symbol.normalize('NFKC').toLowerCase());
      a[count] = ha;
      b[count] = hb;
      starts[count] = i;
      ends[count++] = i + width;
      i += width;
      continue;
    }
    if (kind !== WORD) {
      i += width;
      continue;
    }
    // A word: ASCII letters and digits are folded and hashed as they come; a word with other
    // characters is folded whole (NFKC, lower case) and hashed after.
    const start = i;
    let ascii = true;
    let ha = FNV_OFFSET;
    let hb = B_SEED;
    let hashed = 0;
    let end = i;
    while (i < length) {
      let c = source.charCodeAt(i);
      if (c < 128) {
        const k = ASCII_CLASS[c] as number;
        if (k === WORD) {
          const lower = c >= 65 && c <= 90 ? c + 32 : c;
          ha = Math.imul(ha ^ lower, FNV_PRIME);
          hb = Math.imul(hb ^ lower, B_PRIME);
          hb ^= hb >>> 15;
          hashed++;
          end = ++i;
          continue;
        }
        // An apostrophe joins two word characters; anything else ends the word.
        if (k === APOSTROPHE && i + 1 < length && isWordAt(source, i + 1)) {
          i++;
          continue;
        }
        break;
      }
      let w = 1;
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < length) {
        c = source.codePointAt(i) as number;
        w = 2;
      }
      const k = classOf(c);
      if (k === WORD) {
        ascii = false;
        i += w;
        end = i;
        continue;
      }
      if (k === APOSTROPHE && i + 1 < length && isWordAt(source, i + 1)) {
        i += w;
        continue;
      }
      break;
    }
    if (ascii) {
      a[count] = fmix(ha);
      b[count] = fmix(hb ^ hashed);
    } else {
      const folded = source.slice(start, end).replace(/['’]/g, '').normalize('NFKC').toLowerCase();
      const [fa, fb] = hashWord(folded);
      a[count] = fa;
      b[count] = fb;
    }
    starts[count] = start;
    ends[count++] = end;
  }
  out.length = count;
  return count - first;
}

/** Whether the character at `i` is a word character. */
function isWordAt(source: string, i: number): boolean {
  const code = source.codePointAt(i) as number;
  return (code < 128 ? (ASCII_CLASS[code] as number) : classOf(code)) === WORD;
}

/**
 * A folded word's two hashes: FNV-1a over UTF-16 code units, and a second,
 * independent one (another seed and multiplier), so a key is 64 bits wide.
 * The ASCII path above computes the same, character by character (lane B
 * takes the word's length at the end, so it can be hashed as it comes).
 */
export function hashWord(word: string): [number, number] {
  let ha = FNV_OFFSET;
  let hb = B_SEED;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    ha = Math.imul(ha ^ c, FNV_PRIME);
    hb = Math.imul(hb ^ c, B_PRIME);
    hb ^= hb >>> 15;
  }
  return [fmix(ha), fmix(hb ^ word.length)];
}
