import { CODE_PAGES, type CodePage, WINDOWS_1252 } from './codecs.ts';
import { decodeUtf8Lenient } from './utf8.ts';

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
  runs: RegExp;
}

function compile(page: CodePage): CompiledPage {
  const c = `[${escapeClass(page.continuation)}]`;
  const sequence =
    `[${escapeClass(page.lead2)}]${c}|[${escapeClass(page.lead3)}]${c}{2}|` +
    `[${escapeClass(page.lead4)}]${c}{3}`;
  return { page, runs: new RegExp(`(?:${sequence})+`, 'gu') };
}

const COMPILED = CODE_PAGES.map(compile);

/** Continuation chars that, right before the end of a word, are ordinary punctuation after a capital. */
const TRAILING_PUNCTUATION = new Set([...'…’”“‘´¨®©™¿¡«»°×¬']);
const isLetterOrDigit = (char: string | undefined): boolean =>
  char !== undefined && /[\p{L}\p{N}]/u.test(char);
/** Decoded characters that real text practically never contains. */
/** Private use, unassigned, IPA, phonetic extensions, Armenian, Latin Extended-C. */
const IMPLAUSIBLE = /[\p{Co}\p{Cn}\u0250-\u02af\u1d00-\u1dbf\u0530-\u058f\u2c60-\u2c7f]/u;
/** Letters of scripts that do not appear as a lone letter inside Latin words (Greek does: "IL2Rγ"). */
const FOREIGN_LETTER = /[\p{L}--[\p{Script=Latin}\p{Script=Common}\p{Script=Greek}]]/v;
const isSymbol = (char: string): boolean => !/[\p{L}\p{N}\s]/u.test(char);

interface Replacement {
  start: number;
  end: number;
  text: string;
  strong: boolean;
}

function encodeRun(run: string, page: CodePage): number[] | null {
  const bytes: number[] = [];
  for (const char of run) {
    const byte = page.toByte.get(char);
    if (byte === undefined) return null;
    bytes.push(byte);
  }
  return bytes;
}

/** Is the mis-decoded run strong evidence on its own? */
function isStrong(run: string, page: CodePage, before: string, after: string): boolean {
  const chars = [...run];
  if (chars.some((c) => c >= '\u0080' && c <= '\u009f')) return true;
  if (chars.length >= 3) {
    return page.strongLeads.includes(chars[0] ?? '') || chars.length >= 4 || chars.some(isSymbol);
  }
  // A two-char run: a lead and one continuation char.
  const [lead = '', cont = ''] = chars;
  if (!page.strongLeads.includes(lead)) return false;
  // "MARQUÉ…", "NESTLÉ®": a capital after capitals, then punctuation ending the word, is typography.
  const afterLowercase = /\p{Ll}/u.test(before);
  if (TRAILING_PUNCTUATION.has(cont) && !isLetterOrDigit(after) && !afterLowercase) return false;
  // "SELKÄ EDELLÄ": a letter before a no-break space is spacing, except the classic "Ã " / "Â ".
  if (cont === '\u00a0') return 'ÃÂ'.includes(lead);
  // "√π" in a formula stands alone; mojibake sits inside words ("wei√ü", "r√©gime").
  return isLetterOrDigit(before) || isLetterOrDigit(after);
}

const CJK = /[\u3000-\u9fff\uf900-\ufaff]/u;
const C1 = /[\u0080-\u009f]/u;

function isPlausible(decoded: string, before: string, after: string, page: CodePage): boolean {
  if (IMPLAUSIBLE.test(decoded)) return false;
  // A C1 control is an intermediate layer of Windows-1252 mojibake, never of other code pages.
  if (C1.test(decoded) && page !== WINDOWS_1252) return false;
  // One CJK character amid Latin garbage is a coincidence, not a repair.
  if ([...decoded].length === 1 && CJK.test(decoded) && !CJK.test(before + after)) return false;
  const letters = [...decoded].filter((c) => /\p{L}/u.test(c));
  // One letter of another script inside Latin words ("Ҏ") is a false decoding.
  if (letters.length === 1 && FOREIGN_LETTER.test(letters[0] ?? '')) {
    if (/\p{Script=Latin}/u.test(before + after)) return false;
  }
  // A lone lowercase letter inside a word in capitals ("MÄ£ÄM" -> "MģÄM") is leetspeak, not mojibake.
  if (letters.length === 1 && /\p{Ll}/u.test(decoded)) {
    const previous = [...before].reverse().find((c) => /\p{L}/u.test(c));
    const next = [...after].find((c) => /\p{L}/u.test(c));
    if (previous && next && /\p{Lu}/u.test(previous) && /\p{Lu}/u.test(next)) return false;
  }
  return true;
}

function findReplacements(text: string, compiled: CompiledPage): Replacement[] {
  const found: Replacement[] = [];
  for (const match of text.matchAll(compiled.runs)) {
    const run = match[0];
    const start = match.index;
    const end = start + run.length;
    const before = text.slice(Math.max(0, start - 1), start);
    const after = text.slice(end, end + 1);
    const bytes = encodeRun(run, compiled.page);
    if (!bytes) continue;
    const decoded = decodeUtf8Lenient(bytes);
    const context = [text.slice(Math.max(0, start - 8), start), text.slice(end, end + 8)] as const;
    if (decoded === null || !isPlausible(decoded, context[0], context[1], compiled.page)) continue;
    found.push({ start, end, text: decoded, strong: isStrong(run, compiled.page, before, after) });
  }
  return found;
}

/** Non-ASCII chars outside the candidate runs: evidence that the text is otherwise fine. */
function cleanNonAscii(text: string, replacements: Replacement[]): number {
  let count = 0;
  let cursor = 0;
  for (const r of [...replacements, { start: text.length, end: text.length }]) {
    for (const char of text.slice(cursor, r.start)) {
      // C1 controls are damage themselves, not evidence of clean text.
      if (char > '\u009f' && char !== '\u00a0') count++;
    }
    cursor = r.end;
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
      found.push({ start: match.index, end: match.index + 2, text: '\u00a0', strong: false });
    }
  }
  if (letters) {
    for (const match of text.matchAll(letters)) {
      const letter = decoded.get(match[0].charAt(0)) ?? '';
      found.push({
        start: match.index,
        end: match.index + 2,
        text: letter === 'à' ? wordAfterA(text.slice(match.index + 2)) : letter,
        strong: false,
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
    else if (/\p{L}/u.test(char)) {
      letterLeads += lead;
      decoded.set(lead, char);
    }
  }
  patterns = {
    noBreakSpace: spaceLeads
      ? new RegExp(`(?<=[\\p{L}\\p{N}.,;:!?])[${escapeClass(spaceLeads)}] (?=\\S)`, 'gu')
      : null,
    letters: letterLeads
      ? new RegExp(`(?<=^|[\\s'’(])[${escapeClass(letterLeads)}] (?=\\p{L})`, 'gu')
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

/** Chars in the replaced runs that contradict the page: C1 controls it would have printed. */
function contradictions(text: string, replacements: Replacement[], page: CodePage): number {
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
function fixOneLayer(text: string): string | null {
  let best: { text: string; saved: number; contradictions: number } | null = null;
  for (const compiled of COMPILED) {
    const replacements = findReplacements(text, compiled);
    // A 3- or 4-byte sequence ("â€”") is worth two pieces of evidence; a 2-byte one ("Ã¥") one.
    const strong = replacements
      .filter((r) => r.strong)
      .reduce((sum, r) => sum + (r.end - r.start >= 3 ? 2 : 1), 0);
    if (strong === 0) continue;
    // Text that also holds correct non-ASCII characters needs more than one piece of evidence.
    if (strong < 2 && cleanNonAscii(text, replacements) > 0) continue;
    const accepted = [
      ...replacements.filter((r) => r.strong || strong >= 2),
      ...lostNoBreakSpaceRepairs(text, compiled.page),
    ].sort((a, b) => a.start - b.start);
    const applied = accepted.filter((r, i) => i === 0 || r.start >= (accepted[i - 1]?.end ?? 0));
    const candidate = applyReplacements(text, applied);
    const saved = text.length - candidate.length;
    const against = contradictions(text, applied, compiled.page);
    const better =
      !best || saved > best.saved || (saved === best.saved && against < best.contradictions);
    if (saved > 0 && better) best = { text: candidate, saved, contradictions: against };
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
    if (next === current) break;
    if (layer !== null) layers++;
    current = next;
  }
  return { text: current, layers };
}

/** Quick pre-filter: ASCII-only text cannot hold mojibake. */
export const mayHoldMojibake = (text: string): boolean => /[^\u0000-\u007f]/.test(text);
