import iconv from 'iconv-lite';

/**
 * Single-byte code pages that UTF-8 text is most often mis-decoded with.
 * The byte tables come from iconv-lite; this file only adds the "sloppy"
 * reading: bytes a code page leaves undefined map to the C1 control of the
 * same number, as browsers and many programs do, so the original bytes can
 * be recovered.
 */

export interface CodePage {
  name: string;
  /** char -> byte for the upper half (0x80..0xFF). */
  toByte: Map<string, number>;
  /** The chars that stand for UTF-8 lead bytes of 2, 3 and 4 byte sequences, and for continuation bytes. */
  lead2: string;
  lead3: string;
  lead4: string;
  continuation: string;
  /** Lead chars typical of this code page's mojibake (strong evidence on their own). */
  strongLeads: string;
  /**
   * C1 controls that this code page would have shown as printable characters:
   * finding them in mojibake is evidence that another page (one that leaves
   * them as controls, such as ISO-8859-2) did the mis-decoding.
   */
  printsC1: ReadonlySet<string>;
  /**
   * A regional page (Central European, Baltic, Cyrillic): text mis-decoded with
   * it was written in its own languages, so a short repair must give letters
   * the page itself has ("ВІКІ" is Ukrainian, not "²ʲ").
   */
  regional: boolean;
  /** Byte 0xA0 reads as a no-break space, which programs often turn into a space. */
  spaceIsA0: boolean;
}

/** Bytes 0x80..0xFF, decoded at once: a single-byte page maps each to one char, with no state. */
const UPPER_HALF = Buffer.from(Array.from({ length: 0x80 }, (_, i) => 0x80 + i));

function buildCodePage(name: string, strongLeads: string, regional = false): CodePage {
  const toByte = new Map<string, number>();
  const charOf: string[] = [];
  // One decode per page rather than one per byte (896 in all; ~2 ms of every engine thread).
  const decoded = iconv.decode(UPPER_HALF, name);
  if (decoded.length !== UPPER_HALF.length) throw new Error(`${name}: not a single-byte page`);
  for (let byte = 0x80; byte <= 0xff; byte++) {
    let char = decoded[byte - 0x80] as string;
    if (char === '\ufffd') char = String.fromCharCode(byte); // sloppy: undefined byte -> C1 control
    charOf[byte] = char;
    toByte.set(char, byte);
  }
  // Text that went through Latin-1 keeps C1 controls where the code page has printable chars.
  const printsC1 = new Set<string>();
  for (let byte = 0x80; byte <= 0x9f; byte++) {
    const c1 = String.fromCharCode(byte);
    if (!toByte.has(c1)) {
      toByte.set(c1, byte);
      printsC1.add(c1);
    }
  }
  const range = (from: number, to: number): string => {
    let chars = '';
    for (let byte = from; byte <= to; byte++) chars += charOf[byte] ?? '';
    return chars;
  };
  let continuation = range(0x80, 0xbf);
  for (let byte = 0x80; byte <= 0x9f; byte++) {
    const c1 = String.fromCharCode(byte);
    if (!continuation.includes(c1)) continuation += c1;
  }
  return {
    name,
    toByte,
    lead2: range(0xc2, 0xdf),
    lead3: range(0xe0, 0xef),
    lead4: range(0xf0, 0xf4),
    continuation,
    strongLeads,
    printsC1,
    regional,
    spaceIsA0: charOf[0xa0] === '\u00a0',
  };
}

/** In order of how often they occur in the wild. */
export const CODE_PAGES: readonly CodePage[] = [
  buildCodePage('windows-1252', 'ÃÂÅÄÈÐÑÎÏÌØâãäåæçèéêëìíîïð'),
  // "О" and "П" (0xCE, 0xCF) lead the Greek letters ("О±" for "α", "ПЂ" for "π").
  buildCodePage('windows-1251', 'РСвЂГВДЕОП', true),
  // "Œ" and "œ" (0xCE, 0xCF) lead the Greek letters ("Œ±" for "α").
  buildCodePage('macintosh', '¬√ƒ≈‚Œœ'),
  buildCodePage('windows-1250', 'ĂÄĹÅâ', true),
  // Windows-1250's ISO twin (Czech, Polish): the same leads, C1 controls where 1250 prints.
  buildCodePage('iso-8859-2', 'ĂÄĹÅâ', true),
  // Baltic (Lithuanian, Latvian): "ÄÆ" for "į", "Å³" for "ų".
  buildCodePage('windows-1257', 'ÄÅĆ', true),
  // DOS: the box-drawing leads ("─îe┼ítina" for "Čeština"), strong only inside words,
  // and the Greek leads of 3-byte sequences ("ΓÇª" for "…").
  buildCodePage('cp437', '┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδφε'),
];

export const WINDOWS_1252 = CODE_PAGES[0] as CodePage;
