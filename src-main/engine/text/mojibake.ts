import { CODE_PAGES, type CodePage, WINDOWS_1252 } from './codecs.ts';
import { decodeUtf8Lenient, LOST_BYTE } from './utf8.ts';

/**
 * Mojibake: UTF-8 bytes that were decoded with a single-byte code page
 * ("cafÃ©" for "café"). No maintained JavaScript library repairs it (ftfy is
 * Python), so this is our own, after ftfy's idea: find runs of characters
 * that re-encode to valid UTF-8, and decode them back, but only where the run
 * is strong evidence of mojibake, so that real text that merely looks odd
 * ("MARQUÉ…", "∆°", "[x] ©") is left alone.
 */

const escapeClass = (chars: string): string => chars.replace(/[\\\]^-]/g, '\\$&');

interface CompiledPage {
  page: CodePage;
  /** Runs of one or more sequences. */
  runs: RegExp;
  /** One sequence, sticky: splits a run. */
  sequence: RegExp;
  /** A lead char of this page: every sequence of `runs` starts with one. */
  anyLead: RegExp;
}

/**
 * A sequence is a lead char and its continuation chars. Lossy decodings put
 * U+FFFD where a byte was undefined ("Ä�" for "č"), or "?" in its place
 * ("â€?" for "”"); a no-break space (byte 0xA0) often became a plain space
 * ("Ð ÑƒÑ" for "Ру", "â € " for the Braille blank). A space is read as 0xA0
 * only inside a sequence or where another sequence follows at once, and "?"
 * only in the commonest Windows-1252 sequences.
 */
function compile(page: CodePage): CompiledPage {
  const c = `[${escapeClass(page.continuation)}\\ufffd]`;
  const l2 = `[${escapeClass(page.lead2)}]`;
  const l3 = `[${escapeClass(page.lead3)}]`;
  const l4 = `[${escapeClass(page.lead4)}]`;
  const plain = `${l2}${c}|${l3}${c}{2}|${l4}${c}{3}`;
  const alternatives = [plain];
  if (page.spaceIsA0) {
    alternatives.push(`${l3} ${c}|${l4} ${c}{2}|${l4}${c} ${c}`);
    // Not at the end of a word: "AMANHÃ Å—" is Portuguese capitals and an ångström sign.
    // (The test sits after the lead, so that every alternative starts with a char class: fast.)
    const free = (lead: string): string => `${lead}(?<=(?:^|\\P{L}|${c})${lead})`;
    alternatives.push(`(?:${free(l2)}|${free(l3)}${c}|${free(l4)}${c}{2}) (?=${plain})`);
  }
  if (page.name === 'windows-1252') {
    const [c2 = '', c3 = ''] = [...page.lead2];
    const e2 = [...page.lead3][2] ?? '';
    alternatives.push(`[${escapeClass(c2 + c3)}]\\?|${escapeClass(e2)}(?:${c}\\?|\\?${c})`);
  }
  const one = `(?:${alternatives.join('|')})`;
  return {
    page,
    runs: new RegExp(`${one}+`, 'gu'),
    sequence: new RegExp(one, 'uy'),
    anyLead: new RegExp(`[${escapeClass(page.lead2 + page.lead3 + page.lead4)}]`, 'u'),
  };
}

const COMPILED = CODE_PAGES.map(compile);
/** The pages a middle layer is read with: Windows-1252 (and Latin-1), Windows-1251, cp437. */
const LAYERED = COMPILED.filter((c) =>
  ['windows-1252', 'windows-1251', 'cp437'].includes(c.page.name),
);

/** Continuation chars that, right before the end of a word, are ordinary punctuation after a capital. */
const TRAILING_PUNCTUATION = new Set([...'…’”“‘´¨®©™¿¡«»°×¬']);
/** Made once: a regex literal in these per-character helpers would be a new object per call. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LETTER = /\p{L}/u;
const NOT_SYMBOL = /[\p{L}\p{N}\s]/u;
const SPACE = /\s/u;
const isLetterOrDigit = (char: string | undefined): boolean =>
  char !== undefined && LETTER_OR_DIGIT.test(char);
const isLetter = (char: string): boolean => LETTER.test(char);
/**
 * Decoded characters that real text practically never contains: private use,
 * unassigned, IPA, phonetic extensions, Armenian, Latin Extended-C, historic
 * Cyrillic ("СЄ" is not "Ѫ"), Samaritan and Mandaic ("à «" is not "ࠫ"), the
 * long s ("a┼┐a" is not "aſa").
 */
const IMPLAUSIBLE =
  /[\p{Co}\p{Cn}\u0250-\u02af\u1d00-\u1dbf\u0530-\u058f\u2c60-\u2c7f\u0460-\u0489\u0800-\u089f\u017f]/u;
/** Letters of scripts that do not appear as a lone letter inside Latin words (Greek does: "IL2Rγ"). */
const FOREIGN_LETTER = /[\p{L}--[\p{Script=Latin}\p{Script=Common}\p{Script=Greek}]]/v;
const isSymbol = (char: string): boolean => !NOT_SYMBOL.test(char);
/** Box drawing and block elements: DOS art, not letters ("┌─┐" is not "┌Ŀ"). */
const BOX = /[\u2500-\u259f]/u;
/** "Ã’s" is a capital's plural or possessive ("a lot of Ã’s"), not "Òs". */
const APOSTROPHE_SUFFIX = /^(?:s|t|d|m|ll|re|ve)(?![\p{L}\p{N}])/u;

interface Replacement {
  start: number;
  end: number;
  text: string;
  strong: boolean;
  /** Sequences decoded (0 for the repairs of a lost no-break space). */
  sequences: number;
}

/** Byte of a char of a sequence: a space stands for 0xA0, U+FFFD and "?" for a lost byte. */
function encodeRun(run: string, page: CodePage): number[] | null {
  const bytes: number[] = [];
  for (const char of run) {
    const byte =
      char === ' ' ? 0xa0 : char === '\ufffd' || char === '?' ? LOST_BYTE : page.toByte.get(char);
    if (byte === undefined) return null;
    bytes.push(byte);
  }
  return bytes;
}

/** Is the mis-decoded run strong evidence on its own? */
function isStrong(
  run: string,
  decoded: string,
  page: CodePage,
  before: string,
  after: string,
): boolean {
  const chars = [...run];
  if (chars.some((c) => c >= '\u0080' && c <= '\u009f')) return true;
  if (page.name === 'cp437' && chars.length >= 3) {
    // Box drawing is mojibake only inside a word, or where it leads accented letters.
    const insideWord = isLetterOrDigit(before) || isLetterOrDigit(after[0]);
    if (!insideWord && !chars.slice(1).some(isLetter) && !isForeignWord(decoded)) return false;
  }
  if (chars.length >= 3) {
    return page.strongLeads.includes(chars[0] ?? '') || chars.length >= 4 || chars.some(isSymbol);
  }
  // A two-char run: a lead and one continuation char.
  const [lead = '', cont = ''] = chars;
  if (!page.strongLeads.includes(lead)) return false;
  // Box drawing beside box drawing is DOS art ("┌─┐"); "m┬▓" is "m²", "─îe" is "Če".
  if (page.name === 'cp437') {
    if (BOX.test(before + after.charAt(0))) return false;
  }
  // "Ã" never stands before "™" in real text: "OÃ™ ET" is "OÙ ET" ("AHÅ™" is a name).
  if (lead === 'Ã' && cont === '™' && page === WINDOWS_1252) return true;
  if (cont === '’' && !isLetterOrDigit(before) && APOSTROPHE_SUFFIX.test(after)) return false;
  // A regional page's capital before a sign, alone, that reads "×" or "÷" ("Г·" in Windows-1251).
  if (page.regional && !isLetter(before) && /^[×÷]$/u.test(decoded)) return true;
  if (page.name === 'macintosh' && !isLetter(before) && macRomanSign(lead, decoded, after)) {
    return true;
  }
  // Windows-1251: "О±", "Оµ", "ПЂ" standing alone are "α", "ε", "π" (a Russian "О" is no such pair).
  if (
    page.name === 'windows-1251' &&
    'ОП'.includes(lead) &&
    !isLetter(before) &&
    !isLetter(after.charAt(0)) &&
    /^\p{Script=Greek}$/u.test(decoded)
  ) {
    return true;
  }
  // "MARQUÉ…", "NESTLÉ®": a capital after capitals, then punctuation ending the word, is typography.
  // "Ã" and "Â" alone are no word: "Â»" and "Ã¨" between spaces are "»" and "è".
  const afterLowercase = /\p{Ll}/u.test(before);
  const wordEnd = TRAILING_PUNCTUATION.has(cont) && !isLetterOrDigit(after[0]) && !afterLowercase;
  if (wordEnd && (isLetter(before) || !'ÃÂ'.includes(lead) || page !== WINDOWS_1252)) return false;
  // "SELKÄ EDELLÄ": a letter before a no-break space is spacing, except the classic "Ã " / "Â ".
  // A no-break space glued to the word before ("cookies,В " in Windows-1251) is one too.
  if (cont === '\u00a0') {
    return (
      'ÃÂ'.includes(lead) || (lead === page.lead2.charAt(0) && /[\p{L}\p{N},.;:!?]/u.test(before))
    );
  }
  // "Ã" and "Â" never stand before a sign in real text: "Â½", "Ã¸" alone are "½", "ø";
  // nor do "Ð" and "Ñ" ("Ð¸" is the Russian word "и"), "Î" and "Ï" ("Î±" is "α").
  if (page === WINDOWS_1252 && 'ÃÂÐÑÎÏ'.includes(lead)) return true;
  // A box-drawing lead before an accented letter or a sign is no DOS art ("├¿" is "è").
  // "┬" (0xC2) leads the Latin-1 signs, "╨╤" Cyrillic: "┬╜", "╨╕" away from box drawing are "½", "и";
  // "╬╧" Greek ("╬▒" is "α"), "├" before a box char a sign ("├╖" is "÷"; "├┤a" is no "ôa").
  if (page.name === 'cp437' && BOX.test(lead)) {
    if (!BOX.test(cont) || '┬╨╤╬╧'.includes(lead)) return true;
    if (lead === '├' && !isLetter(decoded)) return true;
  }
  // "√π" in a formula stands alone; mojibake sits inside words ("wei√ü", "r√©gime").
  return isLetterOrDigit(before) || isLetterOrDigit(after[0]);
}

/**
 * MacRoman pairs that stand alone in English text and are no writing of
 * their own: "Œ±" and "Œµ" (a ligature before a sign) are "α" and "ε"; "√ó"
 * and "√∑" between spaces are "×" and "÷" (a root of a sum, "√∑(x", runs
 * into its operand); "¬†" (a not sign before a dagger) is a no-break space.
 */
function macRomanSign(lead: string, decoded: string, after: string): boolean {
  if ('Œœ'.includes(lead)) return /^\p{Script=Greek}$/u.test(decoded);
  if (lead === '√') return /^[×÷]$/u.test(decoded) && !/^[\p{L}\p{N}([{]/u.test(after);
  return lead === '¬' && decoded === '\u00a0';
}

const CJK = /[\u3000-\u9fff\uf900-\ufaff]/u;
const C1 = /[\u0080-\u009f]/u;
const SCRIPTS = [
  /\p{Script=Latin}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Arabic}/u,
  /\p{Script=Hebrew}/u,
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
  /\p{Script=Hangul}/u,
  /\p{Script=Devanagari}/u,
  /\p{Script=Bengali}/u,
  /\p{Script=Tamil}/u,
  /\p{Script=Telugu}/u,
  /\p{Script=Kannada}/u,
  /\p{Script=Malayalam}/u,
  /\p{Script=Gujarati}/u,
  /\p{Script=Gurmukhi}/u,
  /\p{Script=Sinhala}/u,
  /\p{Script=Thai}/u,
  /\p{Script=Georgian}/u,
  /\p{Script=Ethiopic}/u,
];
const scriptOf = (letter: string): RegExp | undefined => SCRIPTS.find((s) => s.test(letter));
/** Letters all of one script, at least two (three for Latin): a word of that script. */
const isWord = (letters: string[]): boolean => {
  const script = SCRIPTS.find((s) => letters.every((l) => s.test(l)));
  return script !== undefined && letters.length >= (script === SCRIPTS[0] ? 3 : 2);
};
/** A decoded word of a script other than Latin ("╨║╨░╨║" is "как"). */
function isForeignWord(decoded: string): boolean {
  const letters = [...decoded].filter(isLetter);
  return isWord(letters) && !SCRIPTS[0]?.test(letters[0] ?? '');
}
const LATIN_1_LETTER = /[\u00c0-\u00ff]/u;
const ASCII_ALNUM = /[A-Za-z0-9]/;

/**
 * A regional page's mojibake is of its own languages (letters the page has),
 * or of Latin text ("rГ©gion", "signiп¬Ѓcantly", "pagrÄŻstai"), a Greek
 * letter alone (a symbol), or a whole word of another script. "ВІКІ" (Ukrainian capitals, not "²ʲ") is none of these.
 */
function fitsRegionalPage(letters: string[], before: string, after: string, page: CodePage) {
  const foreign = letters.filter((l) => l > '\u007f' && !page.toByte.has(l));
  if (foreign.length === 0 || foreign.every((l) => LATIN_1_LETTER.test(l))) return true;
  if (ASCII_ALNUM.test(before.slice(-1)) || ASCII_ALNUM.test(after.charAt(0))) return true;
  // One Greek letter standing alone is a symbol of science ("(α)", "ε0", "denoted α,").
  const alone = !isLetter(before.slice(-1)) && !isLetter(after.charAt(0));
  if (alone && letters.length === 1 && /^\p{Script=Greek}$/u.test(foreign[0] ?? '')) return true;
  // Beside letters of the same script, or words of it ("कैसे а¤№аҐ€а¤‚" once "कैसे" is repaired).
  const script = scriptOf(foreign[0] ?? '');
  if (script && script !== SCRIPTS[0] && (script.test(before) || script.test(after))) return true;
  return isWord(letters);
}

function isPlausible(decoded: string, before: string, after: string, page: CodePage): boolean {
  if (IMPLAUSIBLE.test(decoded)) return false;
  // A C1 control is an intermediate layer of Windows-1252 mojibake, never of other code pages.
  if (C1.test(decoded) && page !== WINDOWS_1252) return false;
  // One CJK character amid Latin garbage is a coincidence, not a repair.
  if ([...decoded].length === 1 && CJK.test(decoded) && !CJK.test(before + after)) return false;
  const letters = [...decoded].filter(isLetter);
  const previous = before.slice(-1);
  const next = after.charAt(0);
  if (page.regional && !fitsRegionalPage(letters, before, after, page)) return false;
  // A regional page's letters beside letters of another script ("Гёте" is not "øте").
  if (page.regional && letters.length > 0) {
    const script = scriptOf(letters[0] ?? '');
    const neighbours = [previous, next].filter(isLetter);
    if (script && neighbours.some((n) => scriptOf(n) !== undefined && !script.test(n))) {
      return false;
    }
  }
  // One letter of another script inside a Latin word ("Ҏ") is a false decoding.
  if (letters.length === 1 && FOREIGN_LETTER.test(letters[0] ?? '')) {
    if (/\p{Script=Latin}/u.test(previous + next)) return false;
  }
  // A lone lowercase letter inside a word in capitals ("MÄ£ÄM" -> "MģÄM") is leetspeak, not mojibake.
  if (letters.length === 1 && /\p{Ll}/u.test(decoded)) {
    // Within the same word: the words around may be mojibake in capitals ("kÃ¡, Ã¸. ÅÃ³").
    const previousLetter = [...before.replace(/^.*\s/su, '')].reverse().find(isLetter);
    const nextLetter = [...after.replace(/\s.*$/su, '')].find(isLetter);
    if (
      previousLetter &&
      nextLetter &&
      /\p{Lu}/u.test(previousLetter) &&
      /\p{Lu}/u.test(nextLetter)
    )
      return false;
  }
  return true;
}

/**
 * Two capitals of a regional page inside a word in capitals are that word's
 * letters ("HÅØYA", not "HŨYA" through Windows-1257).
 */
function isCapitalsWord(
  run: string,
  decoded: string,
  before: string,
  after: string,
  page: CodePage,
): boolean {
  if (!page.regional || [...run].length !== 2) return false;
  if (!/^\p{Lu}{2}$/u.test(run) || !/^\p{Lu}$/u.test(decoded)) return false;
  // Capitals of the same script as the word they sit in ("ЕЉUORAT" is "ŊUORAT").
  const script = scriptOf(run.charAt(0));
  const inWord = (c: string): boolean =>
    /\p{Lu}/u.test(c) && script !== undefined && script.test(c);
  return inWord(before.slice(-1)) || inWord(after.charAt(0));
}

/** Does a decoded run, all of it, read as plausible mojibake of one more layer? */
function decodesAgain(decoded: string, before: string, after: string): boolean {
  const nonAscii = decoded.replace(/[\u0000-\u007f]+/g, '').length;
  if (nonAscii === 0) return false;
  for (const compiled of LAYERED) {
    let covered = 0;
    let plausible = true;
    for (const match of decoded.matchAll(compiled.runs)) {
      const bytes = encodeRun(match[0], compiled.page);
      const again = bytes && decodeUtf8Lenient(bytes);
      const start = match.index;
      const end = start + match[0].length;
      const around = [before + decoded.slice(0, start), decoded.slice(end) + after] as const;
      if (!again || !isPlausible(again, around[0], around[1], compiled.page)) plausible = false;
      covered += match[0].length;
    }
    if (plausible && covered === nonAscii) return true;
  }
  return false;
}

/** The sequences of a run, in order. */
function splitRun(text: string, start: number, end: number, compiled: CompiledPage): string[] {
  const sequences: string[] = [];
  let at = start;
  while (at < end) {
    compiled.sequence.lastIndex = at;
    const match = compiled.sequence.exec(text);
    if (!match) break;
    sequences.push(match[0]);
    at += match[0].length;
  }
  return sequences;
}

/** A sequence whose reading needs a guess: a space for 0xA0, "?" for a lost byte. */
const isGuess = (sequence: string): boolean => sequence.includes(' ') || sequence.includes('?');

function findReplacements(text: string, compiled: CompiledPage): Replacement[] {
  const found: Replacement[] = [];
  for (const match of text.matchAll(compiled.runs)) {
    const run = match[0];
    const start = match.index;
    const end = start + run.length;
    const sequences = /[ ?]/.test(run) ? splitRun(text, start, end, compiled) : [run];
    const certain = sequences.filter((s) => !isGuess(s));
    // "Ã?" alone is too little to go on; "â€?" ("”" with its last byte lost) is not.
    if (certain.length === 0 && sequences.every((s) => s.length < 3)) continue;
    const bytes = encodeRun(run, compiled.page);
    if (!bytes) continue;
    const decoded = decodeUtf8Lenient(bytes);
    const context = [text.slice(Math.max(0, start - 8), start), text.slice(end, end + 8)] as const;
    if (decoded === null) continue;
    // An implausible reading may be a middle layer: "Р”в„ў" reads "Д™", which reads "ę".
    const plausible =
      isPlausible(decoded, context[0], context[1], compiled.page) ||
      decodesAgain(decoded, context[0], context[1]);
    if (!plausible) continue;
    if (isCapitalsWord(run, decoded, context[0], context[1], compiled.page)) continue;
    // Guessed sequences are never evidence on their own.
    const evidence = certain.join('');
    const strong =
      evidence !== '' &&
      isStrong(evidence, decoded, compiled.page, context[0].slice(-1), context[1]);
    found.push({ start, end, text: decoded, strong, sequences: sequences.length });
  }
  return found;
}

/** Non-ASCII chars outside the candidate runs: evidence that the text is otherwise fine. */
function cleanNonAscii(text: string, replacements: Replacement[]): number {
  let count = 0;
  let cursor = 0;
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  for (const r of [...sorted, { start: text.length, end: text.length }]) {
    for (const char of text.slice(cursor, Math.max(cursor, r.start))) {
      // C1 controls and U+FFFD are damage themselves, not evidence of clean text.
      if (char > '\u009f' && char !== '\u00a0' && char !== '\ufffd') count++;
    }
    cursor = Math.max(cursor, r.end);
  }
  return count;
}

function applyReplacements(text: string, replacements: Replacement[]): string {
  let out = '';
  let cursor = 0;
  for (const r of replacements) {
    out += text.slice(cursor, r.start) + r.text;
    cursor = r.end;
  }
  return out + text.slice(cursor);
}

/**
 * Where a no-break space (byte 0xA0) of a UTF-8 sequence was later turned into a
 * plain space, "Ã " is left at the start of a word ("Ã perturber", "Å veices").
 * Repaired only where the same code page already shows strong mojibake.
 */
function lostNoBreakSpaceRepairs(text: string, page: CodePage): Replacement[] {
  const { noBreakSpace, letters, decoded } = noBreakSpacePatterns(page);
  const found: Replacement[] = [];
  if (noBreakSpace) {
    // "namedÂ „scars": the no-break space itself, after a word and before the next.
    for (const match of text.matchAll(noBreakSpace)) {
      found.push({
        start: match.index,
        end: match.index + 2,
        text: '\u00a0',
        strong: false,
        sequences: 0,
      });
    }
  }
  if (letters) {
    for (const match of text.matchAll(letters)) {
      const letter = decoded.get(match[0].charAt(0)) ?? '';
      // "Ã  la": the no-break space became a space and the space after it stayed.
      const spaceFollows = text.charAt(match.index + 2) === ' ';
      found.push({
        start: match.index,
        end: match.index + 2,
        text: letter === 'à' && !spaceFollows ? wordAfterA(text.slice(match.index + 2)) : letter,
        // "Ã" is no word of any language: "Ã la" is "à la" even where nothing else is wrong
        // (but "C O N C L U S Ã O" is spaced capitals).
        strong:
          page === WINDOWS_1252 &&
          match[0].startsWith('Ã') &&
          /^ ?\p{Ll}/u.test(text.slice(match.index + 2)),
        sequences: 0,
      });
    }
  }
  return found;
}

interface NoBreakSpacePatterns {
  /** Leads whose sequence with 0xA0 is the no-break space itself. */
  noBreakSpace: RegExp | null;
  /** Leads whose sequence with 0xA0 is a letter ("Ã " is "à"). */
  letters: RegExp | null;
  decoded: Map<string, string>;
}

const noBreakSpaceCache = new Map<CodePage, NoBreakSpacePatterns>();

/** One pattern per kind and code page, built once (building them per text cost 7% of an audit). */
function noBreakSpacePatterns(page: CodePage): NoBreakSpacePatterns {
  let patterns = noBreakSpaceCache.get(page);
  if (patterns) return patterns;
  let spaceLeads = '';
  let letterLeads = '';
  const decoded = new Map<string, string>();
  for (const lead of page.lead2) {
    const byte = page.toByte.get(lead);
    if (byte === undefined) continue;
    const char = decodeUtf8Lenient([byte, 0xa0]);
    if (char === null) continue;
    if (char === '\u00a0') spaceLeads += lead;
    // Only a letter lead ("Ã", "Ð"): a lead that is punctuation in its page (Mac Roman's "—" is
    // 0xD1, "—" + space read as "Ѡ") stands before a space in correct text all the time.
    else if (/\p{L}/u.test(char) && /\p{L}/u.test(lead)) {
      letterLeads += lead;
      decoded.set(lead, char);
    }
  }
  patterns = {
    noBreakSpace: spaceLeads
      ? new RegExp(`(?<=[\\p{L}\\p{N}.,;:!?\\ufffd])[${escapeClass(spaceLeads)}] (?=\\S)`, 'gu')
      : null,
    letters: letterLeads
      ? new RegExp(`(?<=^|[\\s'’(])[${escapeClass(letterLeads)}] (?= ?\\p{L})`, 'gu')
      : null,
    decoded,
  };
  noBreakSpaceCache.set(page, patterns);
  return patterns;
}

/**
 * "à" is a word of its own in French ("Ã perturber" is "à perturber"), but in
 * Portuguese it also fuses with what follows: "Ã s" is "às", "Ã quele" is
 * "àquele". Other letters simply start the next word ("Å veices").
 */
const PORTUGUESE_CONTRACTION = /^(?:s|quel[ae]s?|quilo)(?![\p{L}\p{N}'’])/u; // not "à s'éloigner"
const wordAfterA = (rest: string): string => (PORTUGUESE_CONTRACTION.test(rest) ? 'à' : 'à ');

/**
 * "voilÃ  le travail", "voilÃ le travail": a word-final "à" whose 0xA0 became
 * a space (or vanished). "Ã" after a lowercase letter is never real text, so
 * this is evidence on its own; after a capital it is Portuguese ("IRMÃ E").
 */
const WORD_FINAL_A = /(?<=\p{Ll})Ã(?= )/gu;

function wordFinalARepairs(text: string): Replacement[] {
  const found: Replacement[] = [];
  for (const match of text.matchAll(WORD_FINAL_A)) {
    const doubled = text.charAt(match.index + 2) === ' ';
    const end = match.index + (doubled ? 2 : 1);
    found.push({ start: match.index, end, text: 'à', strong: true, sequences: 1 });
  }
  return found;
}

/** A Latin-1 letter before a sign or punctuation of the upper half: a pair of mojibake. */
const GARBLE_PAIR = /[\u00c0-\u00ff][€‚ƒ„…†‡ˆ‰‹‘’“”•–—˜™›¢£¤¥¦§¨©ª«¬®¯°±²³´µ¶·¸¹º»¼½¾¿]/gu;

/**
 * Repairs inside a word that stays garbled around them ("ã†â€™ãƒâ€", text
 * lowercased after it was mis-decoded) are dropped: decoding one sequence
 * among many that cannot be decoded does not make the word readable, only
 * different. Such a word is still reported (see mojibake-leftovers.ts).
 */
function dropHopeless(text: string, replacements: Replacement[]): Replacement[] {
  const hopeless = new Set<Replacement>();
  let i = 0;
  while (i < replacements.length) {
    const first = replacements[i] as Replacement;
    let from = first.start;
    while (from > 0 && !SPACE.test(text.charAt(from - 1))) from--;
    let to = first.end;
    while (to < text.length && !SPACE.test(text.charAt(to))) to++;
    const inWord: Replacement[] = [];
    while (i < replacements.length && (replacements[i]?.start ?? 0) < to) {
      inWord.push(replacements[i] as Replacement);
      i++;
    }
    let rest = '';
    let cursor = from;
    for (const r of inWord) {
      rest += `${text.slice(cursor, r.start)} `;
      cursor = r.end;
    }
    rest += text.slice(cursor, to);
    const garble = rest.match(GARBLE_PAIR)?.length ?? 0;
    const decoded = inWord.reduce((n, r) => n + r.sequences, 0);
    if (garble >= 2 && garble >= decoded) for (const r of inWord) hopeless.add(r);
  }
  return hopeless.size === 0 ? replacements : replacements.filter((r) => !hopeless.has(r));
}

/** Chars in the replaced runs that contradict the page: C1 controls it would have printed. */
function contradictions(text: string, replacements: Replacement[], page: CodePage): number {
  // Latin-1, Windows-1252's twin, leaves every C1 control as it is.
  if (page === WINDOWS_1252) return 0;
  let count = 0;
  for (const r of replacements) {
    for (const char of text.slice(r.start, r.end)) if (page.printsC1.has(char)) count++;
  }
  return count;
}

/**
 * One layer of mojibake repaired with the code page that explains the most of
 * it, or null. Between pages that explain it equally (Windows-1250 and
 * ISO-8859-2 read "MĂĄm" as "Måm" and "Mám"), the one the text does not
 * contradict wins: a raw C1 control in the runs means the mis-decoding page
 * left it as a control, so it was not a page that prints that byte.
 */
/**
 * Every sequence is two or more non-ASCII chars in a row; without one, only a
 * lone "Ã" can be evidence. Most text with a curly quote or an accent stops here.
 */
const MAY_HOLD_SEQUENCE = /[^\u0000-\u007f]{2}|Ã/u;

function fixOneLayer(text: string): string | null {
  if (!MAY_HOLD_SEQUENCE.test(text)) return null;
  let best: { text: string; saved: number; contradictions: number } | null = null;
  for (const compiled of COMPILED) {
    // No lead char of this page (nor, for Windows-1252, an "Ã" of its own repairs): nothing to read.
    if (!compiled.anyLead.test(text) && (compiled.page !== WINDOWS_1252 || !text.includes('Ã'))) {
      continue;
    }
    const replacements = findReplacements(text, compiled);
    if (compiled.page === WINDOWS_1252) replacements.push(...wordFinalARepairs(text));
    // Only "Ã " is evidence of its own among the repairs of a lost no-break space.
    const mayUse =
      replacements.some((r) => r.strong) || (compiled.page === WINDOWS_1252 && text.includes('Ã '));
    const noBreakSpaces = mayUse ? lostNoBreakSpaceRepairs(text, compiled.page) : [];
    const all = [...replacements, ...noBreakSpaces];
    // A 3- or 4-byte sequence ("â€”") is worth two pieces of evidence; a 2-byte one ("Ã¥") one.
    const strong = all
      .filter((r) => r.strong)
      .reduce((sum, r) => sum + (r.end - r.start >= 3 ? 2 : 1), 0);
    if (strong === 0) continue;
    // Text that also holds correct non-ASCII characters needs more than one piece of evidence.
    if (strong < 2 && cleanNonAscii(text, all) > 0) continue;
    const accepted = [
      ...replacements.filter((r) => r.strong || strong >= 2),
      ...noBreakSpaces,
    ].sort((a, b) => a.start - b.start);
    const applied = dropHopeless(
      text,
      accepted.filter((r, i) => i === 0 || r.start >= (accepted[i - 1]?.end ?? 0)),
    );
    const candidate = applyReplacements(text, applied);
    const saved = text.length - candidate.length;
    const against = contradictions(text, applied, compiled.page);
    const better =
      !best || saved > best.saved || (saved === best.saved && against < best.contradictions);
    // A repair may save no chars ("voilÃ le" -> "voilà le"), but it changes the text.
    if (candidate !== text && better) best = { text: candidate, saved, contradictions: against };
  }
  return best?.text ?? null;
}

const C1_CONTROLS = /[\u0080-\u009f]/g;

/** C1 controls that stand for Windows-1252 punctuation ("\x93quoted\x94") become that punctuation. */
export function fixC1Controls(text: string): string {
  return text.replace(C1_CONTROLS, (c1) => {
    const byte = c1.charCodeAt(0);
    for (const [char, b] of WINDOWS_1252.toByte) {
      if (b === byte && char !== c1) return char;
    }
    return c1;
  });
}

export interface EncodingRepair {
  text: string;
  /** Layers of mojibake undone (doubly mis-decoded text has two). */
  layers: number;
}

const MAX_LAYERS = 6;

/**
 * Repairs mojibake layer by layer, then C1 controls, until nothing changes
 * (so repairing a repaired text changes nothing). Unchanged text comes back as is.
 */
export function fixEncoding(text: string): EncodingRepair {
  let current = text;
  let layers = 0;
  for (let round = 0; round < MAX_LAYERS; round++) {
    const layer = fixOneLayer(current);
    const next = layer ?? fixC1Controls(current);
    if (next === current) return { text: current, layers };
    if (layer !== null) layers++;
    current = next;
  }
  // Still changing after MAX_LAYERS rounds: no text is mis-decoded that many times, so this is
  // noise that reads as layer after layer (random symbols mis-decoded twice did). Left as it
  // is: a repair stopped midway would be repaired again the next time it is read.
  return fixOneLayer(current) === null && fixC1Controls(current) === current
    ? { text: current, layers }
    : { text, layers: 0 };
}

/** Quick pre-filter: ASCII-only text cannot hold mojibake. */
export const mayHoldMojibake = (text: string): boolean => /[^\u0000-\u007f]/.test(text);
