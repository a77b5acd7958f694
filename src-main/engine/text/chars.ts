/**
 * Char-code tests shared by the rules' linear scans (a loop over char codes
 * allocates nothing, where a regex over a slice allocates the slice).
 */

/** Whitespace exactly as `\s` and `String.prototype.trim` see it. */
export const isSpaceCode = (code: number): boolean =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  code === 0xa0 ||
  code === 0x1680 ||
  (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x202f ||
  code === 0x205f ||
  code === 0x3000 ||
  code === 0xfeff;

/** The end of `text.slice(start, end).trimEnd()`, as an index into `text`. */
export function trimmedEnd(text: string, start: number, end: number): number {
  let at = end;
  while (at > start && isSpaceCode(text.charCodeAt(at - 1))) at--;
  return at;
}

const LETTER = /\p{L}/u;
/** `\p{L}` per BMP code unit, filled in as code units are first seen (-1: not yet known). */
const bmpLetters = new Int8Array(65536).fill(-1);
const astralLetters = new Map<number, boolean>();

/** Whether a code point is a letter (`\p{L}`); lone surrogates are not. */
export function isLetterCodePoint(codePoint: number): boolean {
  if (codePoint < 0x10000) {
    let known = bmpLetters[codePoint] ?? -1;
    if (known < 0) {
      const surrogate = codePoint >= 0xd800 && codePoint <= 0xdfff;
      known = !surrogate && LETTER.test(String.fromCharCode(codePoint)) ? 1 : 0;
      bmpLetters[codePoint] = known;
    }
    return known === 1;
  }
  let is = astralLetters.get(codePoint);
  if (is === undefined) {
    is = LETTER.test(String.fromCodePoint(codePoint));
    astralLetters.set(codePoint, is);
  }
  return is;
}
