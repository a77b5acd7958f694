import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ftfyCases } from '../testing/real-data.ts';
import { fixEncoding } from './mojibake.ts';

const { wild, knownFailures, negative } = ftfyCases();

/** What a program does that reads UTF-8 bytes with a single-byte code page (undefined bytes kept as C1). */
function misdecode(text: string, codePage = 'windows-1252'): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const char = iconv.decode(Buffer.from([byte]), codePage);
      return char === '\ufffd' ? String.fromCharCode(byte) : char;
    })
    .join('');
}
const nfc = (s: string) => s.normalize('NFC');
const matches = (got: string, c: { fixed: string; 'fixed-encoding'?: string }) =>
  nfc(got) === nfc(c['fixed-encoding'] ?? c.fixed) || nfc(got) === nfc(c.fixed);

describe('fixEncoding on ftfy test cases', () => {
  it('repairs most in-the-wild mojibake exactly as ftfy does (58 of 70 measured)', () => {
    const fixed = wild.filter((c) => matches(fixEncoding(c.original).text, c));
    expect(fixed.length).toBeGreaterThanOrEqual(58);
  });

  it.each(negative.map((c, i) => [81 + i, c] as const))(
    'leaves negative case %i untouched (or only fixes its C1 controls)',
    (_line, c) => {
      expect(fixEncoding(c.original).text).toBe(c['fixed-encoding'] ?? c.fixed);
    },
  );

  it('never makes a known ftfy failure longer or throws', () => {
    for (const c of knownFailures) {
      expect(fixEncoding(c.original).text.length).toBeLessThanOrEqual(c.original.length);
    }
  });

  it('repairs mojibake injected into real text, two layers deep too', () => {
    const original = 'Le régime équilibré du café coûte 5 € — “très” cher’';
    expect(fixEncoding(misdecode(original)).text).toBe(original);
    expect(fixEncoding(misdecode(misdecode(original))).text).toBe(original);
    expect(fixEncoding(misdecode(original, 'macintosh')).text).toBe(original);
    expect(fixEncoding(misdecode('дороге из-под футбол', 'windows-1251')).text).toBe(
      'дороге из-под футбол',
    );
  });

  it('leaves clean text alone', () => {
    for (const text of [
      'naïve café',
      'Ελληνικά',
      'Привет, мир',
      '日本語のテキスト',
      'emoji 😀 ok',
    ]) {
      expect(fixEncoding(text)).toEqual({ text, layers: 0 });
    }
  });
});
