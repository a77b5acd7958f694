import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ftfyCases } from '../testing/real-data.ts';
import { fixEncoding } from './mojibake.ts';
import { type CodePageName, lossyOriginal, misdecode, misdecodeLossy } from './mojibake-inject.ts';
import { leftoverMojibake } from './mojibake-leftovers.ts';
import { CLEAN_MULTILINGUAL } from './mojibake-samples.ts';
import { mojibakeRule } from './rules/encoding.ts';

const { wild, knownFailures, negative } = ftfyCases();
const nfc = (s: string) => s.normalize('NFC');
const matches = (got: string, c: { fixed: string; 'fixed-encoding'?: string }) =>
  nfc(got) === nfc(c['fixed-encoding'] ?? c.fixed) || nfc(got) === nfc(c.fixed);

describe('fixEncoding on ftfy test cases', () => {
  it('repairs every in-the-wild case exactly as ftfy does (70 of 70)', () => {
    const missed = wild.filter((c) => !matches(fixEncoding(c.original).text, c));
    expect(missed.map((c) => c.original)).toEqual([]);
  });

  it('reports every in-the-wild case that holds mojibake (the rest is C1 controls, entities)', () => {
    const mojibake = wild.filter((c) => fixEncoding(c.original).layers > 0);
    expect(mojibake.length).toBeGreaterThanOrEqual(65);
    const unreported = mojibake.filter((c) => mojibakeRule.detect(c.original) === null);
    expect(unreported.map((c) => c.original)).toEqual([]);
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

describe('fixEncoding on the kinds ftfy repairs', () => {
  it('reads a lone "Ã" before a space as "à" after a lowercase letter, and before "™" as "Ù"', () => {
    expect(fixEncoding('Il habite lÃ  depuis dix ans').text).toBe('Il habite là depuis dix ans');
    expect(fixEncoding('Il habite lÃ depuis dix ans').text).toBe('Il habite là depuis dix ans');
    expect(fixEncoding('Ã  la maison').text).toBe('à la maison');
    expect(fixEncoding('OÃ™ VAS-TU ?').text).toBe('OÙ VAS-TU ?');
    expect(fixEncoding('AN CÃ™L').text).toBe('AN CÙL');
    // Portuguese capitals end words in "Ã"; a capital's plural is not "Ò"
    for (const text of ['AMANHÃ E DEPOIS', 'A IRMÃ VAI', 'two Ã’s in a row', 'NICIODATĂ™']) {
      expect(fixEncoding(text).text, text).toBe(text);
      expect(mojibakeRule.detect(text), text).toBeNull();
    }
  });

  it('repairs lone Greek letters and signs of MacRoman and Windows-1251 in English text', () => {
    const pairs: [string, string][] = [
      ['The fine structure constant (Œ±) is small.', 'The fine structure constant (α) is small.'],
      ['So 18 √∑ 3 = 6 and 6 √ó 9 = 54.', 'So 18 ÷ 3 = 6 and 6 × 9 = 54.'],
      ['another year.¬† What is the total?', 'another year.\u00a0 What is the total?'],
      [
        'The constant, denoted О±, is small (Оµ0 too).',
        'The constant, denoted α, is small (ε0 too).',
      ],
    ];
    for (const [mangled, repaired] of pairs) {
      expect(mojibakeRule.detect(mangled), mangled).not.toBeNull();
      expect(fixEncoding(mangled).text).toBe(repaired);
    }
    // a root of a sum, a root of pi, a Russian "О" and French ligatures are what they say
    for (const text of ['d = √∑(x_i - y_i)^2', 'the value √π is', 'О нас и о вас', 'ŒUVRE, cœur']) {
      expect(mojibakeRule.detect(text), text).toBeNull();
      expect(fixEncoding(text).text, text).toBe(text);
    }
  });

  it('repairs cp437 box-drawing mojibake inside words, and leaves box art alone', () => {
    expect(fixEncoding(misdecode('Slovenčina', 'cp437')).text).toBe('Slovenčina');
    expect(fixEncoding('Ma┼éopolska i Sloven─ìina').text).toBe('Małopolska i Slovenčina');
    expect(fixEncoding(misdecode('Tromsø, 12 m², 5 €…', 'cp437')).text).toBe('Tromsø, 12 m², 5 €…');
    for (const art of ['┌──┐\n│ok│\n└──┘', '╔═╗ ║x║ ╚═╝ ├─┤ ░▒▓', '├┤a┼┐a┼┐a']) {
      expect(fixEncoding(art).text, art).toBe(art);
    }
  });

  it('repairs layered mojibake in Cyrillic, Hindi and Tamil all the way', () => {
    for (const text of ['Русский язык и футбол', 'हिन्दी भाषा बहुत सुंदर है', 'தமிழ் மொழி இனிமையானது']) {
      expect(fixEncoding(misdecode(misdecode(text))).text).toBe(text);
      expect(fixEncoding(misdecode(misdecode(misdecode(text)))).text).toBe(text);
      expect(fixEncoding(misdecode(misdecode(text, 'latin1'))).text).toBe(text);
      expect(fixEncoding(misdecode(misdecode(text, 'windows-1251'))).text).toBe(text);
    }
  });

  it('repairs lossy mojibake, each sequence that lost a byte becoming one U+FFFD', () => {
    // Undefined bytes read as U+FFFD, the no-break space as a space ("Ð Ñƒ" for "Ру").
    for (const text of ['Русский язык', 'हिन्दी', 'தமிழ்', 'Slovenčina', '“lossy” quotes']) {
      const lossy = misdecodeLossy(text);
      expect(lossy).not.toBe(text);
      expect(fixEncoding(lossy).text, lossy).toBe(lossyOriginal(text));
    }
    expect(fixEncoding('the â€œbestâ€? one, and â€œtheirsâ€?').text).toBe(
      'the “best� one, and “theirs�',
    );
  });

  it('leaves Cyrillic capitals, Scandinavian and Sami words alone', () => {
    for (const text of [
      'ВІКІ — ЗАСІДАННЯ, СЄРІЯ, ПЕРІОД',
      'Гёте и Гёльдерлин',
      'ÅRHUS, Øresund, Ålesund, HÅØYA ER BLÅØYD',
      'Áltá, Čohkkiras, Ánde, ČÁHCI, ŊUORAT',
    ]) {
      expect(fixEncoding(text).text, text).toBe(text);
      expect(mojibakeRule.detect(text), text).toBeNull();
    }
  });

  it('leaves clean text in many scripts alone, and reports none of it', () => {
    const touched = CLEAN_MULTILINGUAL.filter(
      (text) => fixEncoding(text).text !== text || mojibakeRule.detect(text) !== null,
    );
    expect(touched).toEqual([]);
  });

  it('leaves a word that stays garbled around a decodable sequence as it is, but reports it', () => {
    const garble = 'ã†â€™ãƒâ€ ã¢â‚¬â„¢ãƒæ’ã‚â¢';
    expect(fixEncoding(garble).text).toBe(garble);
    expect(leftoverMojibake(garble).length).toBeGreaterThan(0);
  });
});

/**
 * Real words of many scripts, for sentences made up by the properties below;
 * but no word of one non-ASCII letter: "Î—" alone among ASCII words is as
 * likely a capital and a dash as a mis-decoded "Η".
 */
const WORDS = [...new Set(CLEAN_MULTILINGUAL.flatMap((line) => line.split(/\s+/)))].filter(
  (word) => word !== '' && !/^[\p{P}]*[^\p{P}\u0000-\u007f][\p{P}]*$/u.test(word),
);
const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 10 })
  .map((words) => words.join(' '));
const KINDS: Record<string, (text: string) => string> = {
  'Windows-1252': (t) => misdecode(t),
  'Latin-1': (t) => misdecode(t, 'latin1'),
  'Windows-1252 twice': (t) => misdecode(misdecode(t)),
  'Latin-1 then Windows-1252': (t) => misdecode(misdecode(t, 'latin1')),
  'Windows-1252 three times': (t) => misdecode(misdecode(misdecode(t))),
  cp437: (t) => misdecode(t, 'cp437' satisfies CodePageName),
};

describe('fixEncoding properties', () => {
  it.each(Object.entries(KINDS))(
    'UTF-8 text mis-decoded as %s comes back exactly',
    (_kind, mangle) => {
      fc.assert(
        fc.property(sentence, (text) => {
          expect(fixEncoding(mangle(text)).text).toBe(text);
        }),
        { numRuns: 300 },
      );
    },
  );

  it('never changes or reports clean text made of real words in many scripts, in capitals too', () => {
    fc.assert(
      fc.property(sentence, fc.boolean(), (words, capitals) => {
        const text = capitals ? words.toUpperCase() : words;
        expect(fixEncoding(text)).toEqual({ text, layers: 0 });
        expect(mojibakeRule.detect(text)).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves as is a text still changing after as many layers as it undoes', () => {
    // Found by the property below (seed -1120442730): six rounds, then a seventh change.
    const noise = 'Ã Â¡â‚¬Ã›â€\uFFFDÃ°Â\uFFFDâ„¢â€ Ã°Â\uFFFDÅ’Â£Ã°Å¸Â\uFFFDÂ§Ã‘ÂªÃ¢Â\uFFFDâ‚¬';
    const once = fixEncoding(noise);
    expect(fixEncoding(once.text).text).toBe(once.text);
  });

  it('is idempotent on any string: repairing a repair changes nothing', () => {
    const any = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      sentence.map((t) => misdecode(t)),
      fc.string({ unit: 'grapheme', maxLength: 30 }).map((t) => misdecodeLossy(misdecode(t))),
    );
    fc.assert(
      fc.property(any, (text) => {
        const once = fixEncoding(text).text;
        expect(fixEncoding(once).text).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });
});
