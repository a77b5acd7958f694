/**
 * Stands for a byte that a lossy decoding lost (shown as U+FFFD, or as "?"):
 * a sequence holding one decodes to U+FFFD as a whole, as ftfy does.
 */
export const LOST_BYTE = -1;

/**
 * A strict UTF-8 decoder that also accepts CESU-8 surrogate pairs (emoji
 * written as two 3-byte surrogates, common in mojibake from Java and MySQL),
 * but never a lone surrogate. Returns null for anything invalid. A
 * continuation byte may be `LOST_BYTE`: its sequence becomes U+FFFD.
 */
export function decodeUtf8Lenient(bytes: readonly number[]): string | null {
  const units: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i] ?? 0;
    let codePoint: number;
    let length: number;
    if (b0 < 0x80) {
      codePoint = b0;
      length = 1;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      length = 2;
      codePoint = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      length = 3;
      codePoint = b0 & 0x0f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      length = 4;
      codePoint = b0 & 0x07;
    } else {
      return null;
    }
    if (i + length > bytes.length) return null;
    let lost = false;
    for (let k = 1; k < length; k++) {
      const b = bytes[i + k] ?? 0;
      if (b === LOST_BYTE) {
        lost = true;
        continue;
      }
      if ((b & 0xc0) !== 0x80) return null;
      codePoint = (codePoint << 6) | (b & 0x3f);
    }
    const minimum = [0, 0, 0x80, 0x800, 0x10000][length] ?? 0;
    if (lost) codePoint = 0xfffd;
    else if (codePoint < minimum || codePoint > 0x10ffff) return null;
    units.push(codePoint);
    i += length;
  }
  // Pair CESU-8 surrogates; a lone surrogate is invalid.
  let out = '';
  for (let k = 0; k < units.length; k++) {
    const unit = units[k] ?? 0;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = units[k + 1] ?? 0;
      if (next < 0xdc00 || next > 0xdfff) return null;
      out += String.fromCharCode(unit, next);
      k++;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      return null;
    } else {
      out += String.fromCodePoint(unit);
    }
  }
  return out;
}
