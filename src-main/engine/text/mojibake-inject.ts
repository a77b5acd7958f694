import iconv from 'iconv-lite';

/**
 * Mojibake made on purpose, for the tests and the bench: what a program does
 * that reads UTF-8 bytes with a single-byte code page. A "sloppy" reading
 * keeps the bytes the page leaves undefined as C1 controls (browsers, many
 * libraries); a "lossy" one turns them into U+FFFD, and the no-break space
 * into a plain space (a strict decoder, then a whitespace clean-up).
 */

export type CodePageName =
  | 'windows-1252'
  | 'latin1'
  | 'cp437'
  | 'macintosh'
  | 'windows-1251'
  | 'windows-1250'
  | 'iso-8859-2';

const tables = new Map<string, string[]>();

function table(codePage: string): string[] {
  let chars = tables.get(codePage);
  if (!chars) {
    chars = [];
    for (let byte = 0; byte < 256; byte++) {
      chars.push(iconv.decode(Buffer.from([byte]), codePage));
    }
    tables.set(codePage, chars);
  }
  return chars;
}

/** UTF-8 bytes of `text` read with `codePage`, undefined bytes kept as C1 controls. */
export function misdecode(text: string, codePage: CodePageName = 'windows-1252'): string {
  const chars = table(codePage);
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = chars[byte] ?? '\ufffd';
    out += char === '\ufffd' ? String.fromCharCode(byte) : char;
  }
  return out;
}

/** As `misdecode`, but undefined bytes become U+FFFD and the no-break space a space. */
export function misdecodeLossy(text: string, codePage: CodePageName = 'windows-1252'): string {
  const chars = table(codePage);
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = chars[byte] ?? '\ufffd';
    out += char === '\u00a0' ? ' ' : char;
  }
  return out;
}

/** What a lossy reading leaves once repaired: each char that lost a byte becomes U+FFFD. */
export function lossyOriginal(text: string, codePage: CodePageName = 'windows-1252'): string {
  const chars = table(codePage);
  let out = '';
  for (const char of text) {
    const lost = [...Buffer.from(char, 'utf8')].some((byte) => chars[byte] === '\ufffd');
    out += lost ? '\ufffd' : char;
  }
  return out;
}
