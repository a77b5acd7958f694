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
