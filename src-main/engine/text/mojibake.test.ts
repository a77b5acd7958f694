import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ftfyCases } from '../testing/real-data.ts';
import { fixEncoding } from './mojibake.ts';
import { mojibakeRule } from './rules/encoding.ts';

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
  it('repairs most in-the-wild mojibake exactly as ftfy does (63 of 70 measured)', () => {
    const fixed = wild.filter((c) => matches(fixEncoding(c.original).text, c));
    expect(fixed.length).toBeGreaterThanOrEqual(63);
  });

  it('reports what it cannot repair exactly (all but one, which holds U+FFFD)', () => {
    const left = wild.filter((c) => !matches(fixEncoding(c.original).text, c));
    const unreported = left.filter(
      (c) => mojibakeRule.detect(fixEncoding(c.original).text) === null,
    );
    expect(unreported.map((c) => c.original.includes('\ufffd'))).toEqual([true]);
  });

  it.each(negative.map((c, i) => [81 + i, c] as const))(
    'does not report negative case %i',
    (_line, c) => {
      expect(mojibakeRule.detect(c.original)).toBeNull();
    },
  );

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

  it('fuses the Portuguese "às" whose no-break space was lost, but not the French "à"', () => {
    const pt = 'com especial atenÃ§Ã£o Ã s crianÃ§as e Ã quele menino';
    expect(fixEncoding(pt).text).toBe('com especial atenção às crianças e àquele menino');
    const fr = "TroisiÃ¨me Ã©dition qui persiste et signe Ã s'Ã©loigner Ã perturber Ã savoir";
    expect(fixEncoding(fr).text).toBe(
      "Troisième édition qui persiste et signe à s'éloigner à perturber à savoir",
    );
  });

  it('prefers ISO-8859-2 to Windows-1250 where the text keeps C1 controls (Czech)', () => {
    const czech = misdecode('Mám dost třetího tisíciletí', 'iso-8859-2');
    expect(czech).toContain('\u0099'); // "ř" is C5 99, a control in ISO-8859-2, "™" in 1250
    expect(fixEncoding(czech).text).toBe('Mám dost třetího tisíciletí');
    // and text mis-decoded with Windows-1250 still goes back through 1250
    expect(fixEncoding(misdecode('Mám dost třetího tisíciletí', 'windows-1250')).text).toBe(
      'Mám dost třetího tisíciletí',
    );
  });

  it('reports leftovers of a partial repair', () => {
    for (const text of [
      'It was namedÂ „scars´ stones“',
      'ItÃ?¢â?¬â?¢s classic.',
      "sob (à¸‡'̀⌣'́)",
      'upgraded to â€?bb+',
      'Price: 5Â£ only',
    ]) {
      expect(mojibakeRule.detect(text), text).not.toBeNull();
    }
  });

  it('leaves clean text alone', () => {
    for (const text of [
      'naïve café',
      'Ελληνικά',
      'Привет, мир',
      '日本語のテキスト',
      'emoji 😀 ok',
      'Nestlé® and café… “très” cher’',
      'às vezes, àquela hora',
      'Mám dost třetího tisíciletí',
      'Šiaip įdomu, kaip įsivaizduoji. Visų pirma',
    ]) {
      expect(fixEncoding(text)).toEqual({ text, layers: 0 });
    }
  });
});
