/**
 * Numbers mangled in the options of a multiple-choice item, two families:
 *
 * - **Lost exponents.** "9.3 x 10^13" copied from a page where the exponent
 *   was a superscript becomes "9.3 x 1013" (and "1.6 × 10^-19" becomes
 *   "1.6 × 10-19"). Found where a mantissa from 1 to 10 is multiplied by "10"
 *   followed straight by one to three exponent digits (or a minus and
 *   digits), and the reading as scientific notation is the only sensible one:
 *   the mantissa has decimals, or a unit follows, or another option of the
 *   item is written the same way or with a proper exponent ("10^8", "10⁸",
 *   "1e8"). "2 x 100", "4 × 104" alone, or an arithmetic question ("What is
 *   3 x 105?") are left alone. Repaired to the caret form "9.3 x 10^13", the
 *   multiplication sign kept as written: unambiguous, since the digits after
 *   "10" can only have been its exponent.
 * - **Spreadsheet dates.** A range or score "5-14" that a spreadsheet read as
 *   a date and wrote back as "14-May" or "May-14" (and "1-3" as "3-Jan").
 *   Found only in a numeric option set (another option is a number or a range
 *   "a-b") and where no option and not the stem speaks of dates: "May 14,
 *   1948", "14 May", a year, or a question about a date or a month is left
 *   alone. Repaired to "M-D" (the month's number first: the reading by which
 *   the spreadsheet made the date), or, where the other options are ranges
 *   that all run the same way, to the order they use.
 */

export type MangledKind = 'lost_exponent' | 'spreadsheet_date';

export interface MangledNumber {
  kind: MangledKind;
  /** The option (or stem) as it should read. */
  repaired: string;
  /** What was found, for the issue's message. */
  found: string;
  span: [number, number];
}

const TIMES = String.raw`[xX×*·]`;
/** mantissa, times sign, "10", exponent digits (optionally signed): not followed by more digits. */
const MANGLED_EXPONENT = new RegExp(
  String.raw`(?<![\d.,^])(\d(?:\.\d+)?)(\s*${TIMES}\s*)10([-−–]?)(\d{1,3})(?![\d^.,/⁰¹²³⁴⁵⁶⁷⁸⁹]|\s*[x×*/^])`,
  'gu',
);
const PROPER_EXPONENT = new RegExp(
  String.raw`\d\s*${TIMES}\s*10(?:\s*\^|\*\*|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|<sup>)|\d(?:\.\d+)?[eE][-+]?\d{1,3}\b`,
  'u',
);
/** A unit or a word after the number makes it a quantity written in scientific notation. */
const UNIT_AFTER = /^\s*(?:[\p{L}µ°Ω%]|\/)/u;
const ARITHMETIC_STEM =
  /^(?:what\s+is|what's|compute|calculate|evaluate|find|work\s+out)\b[^a-z]*$/i;

function exponentMatches(text: string): RegExpExecArray[] {
  if (!/10/.test(text)) return [];
  MANGLED_EXPONENT.lastIndex = 0;
  return [...text.matchAll(MANGLED_EXPONENT)];
}

/**
 * Lost exponents in one option, given every option of the item (the
 * evidence that the notation is scientific may come from a sibling).
 */
function lostExponents(option: string, choices: readonly string[], stem: string): MangledNumber[] {
  const matches = exponentMatches(option);
  if (matches.length === 0) return [];
  if (ARITHMETIC_STEM.test(stem.trim())) return [];
  const siblingsScientific =
    choices.filter((c) => c !== option && exponentMatches(c).length > 0).length > 0 ||
    choices.some((c) => PROPER_EXPONENT.test(c)) ||
    PROPER_EXPONENT.test(stem);
  const found: MangledNumber[] = [];
  for (const m of matches) {
    const [whole, mantissa = '', times = '', minus = '', exponent = ''] = m;
    const value = Number(mantissa);
    if (!(value >= 1 && value < 10)) continue;
    const after = option.slice(m.index + whole.length);
    const evidence =
      mantissa.includes('.') || UNIT_AFTER.test(after) || siblingsScientific || minus !== '';
    if (!evidence) continue;
    // "x 10000" is ten thousand, not 10^000.
    if (/^0/.test(exponent)) continue;
    found.push({
      kind: 'lost_exponent',
      found: whole,
      repaired: `${mantissa}${times}10^${minus === '' ? '' : '-'}${exponent}`,
      span: [m.index, m.index + whole.length],
    });
  }
  return found;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)`;
const DAY_MONTH = new RegExp(String.raw`^(\d{1,2})-${MONTH}$`, 'i');
const MONTH_DAY = new RegExp(String.raw`^${MONTH}-(\d{1,2})$`, 'i');
const RANGE = /^(\d+(?:\.\d+)?)\s*[-–]\s*(\d+(?:\.\d+)?)$/;
const NUMERIC = /^[-−]?\$?\d[\d,]*(?:\.\d+)?\s*%?$/;
/** Words that make dates the subject: then a date-shaped option is what it says. */
const ABOUT_DATES =
  /\b(?:date|dates|day|days|month|months|birthday|calendar|anniversary|holiday|year|born|died|founded)\b|\b(?:jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;

function asSpreadsheetDate(option: string): { month: number; day: number } | null {
  const text = option.trim();
  const dm = DAY_MONTH.exec(text);
  const md = dm ? null : MONTH_DAY.exec(text);
  const day = Number(dm?.[1] ?? md?.[2]);
  const month = MONTHS.indexOf((dm?.[2] ?? md?.[1] ?? '').toLowerCase()) + 1;
  if (month === 0 || !(day >= 1 && day <= 31)) return null;
  return { month, day };
}

function spreadsheetDate(
  option: string,
  choices: readonly string[],
  stem: string,
): MangledNumber | null {
  const date = asSpreadsheetDate(option);
  if (!date) return null;
  if (ABOUT_DATES.test(stem)) return null;
  const others = choices.filter((c) => c !== option && asSpreadsheetDate(c) === null);
  // Another option spells a date out ("May 14, 1948", "14 May"): the item is about dates.
  if (others.some((c) => ABOUT_DATES.test(c) || /\b1[5-9]\d\d\b|\b20\d\d\b/.test(c))) return null;
  const ranges = others.map((c) => RANGE.exec(c.trim())).filter((m) => m !== null);
  const numeric = ranges.length + others.filter((c) => NUMERIC.test(c.trim())).length;
  if (numeric === 0) return null;
  const ascending = ranges.filter((m) => Number(m[1]) < Number(m[2])).length;
  const descending = ranges.filter((m) => Number(m[1]) > Number(m[2])).length;
  const { month, day } = date;
  let repaired = `${month}-${day}`;
  if (ranges.length > 0 && (ascending === ranges.length || descending === ranges.length)) {
    const [low, high] = month <= day ? [month, day] : [day, month];
    repaired = ascending === ranges.length ? `${low}-${high}` : `${high}-${low}`;
  }
  const start = option.length - option.trimStart().length;
  return {
    kind: 'spreadsheet_date',
    found: option.trim(),
    repaired: option.slice(0, start) + repaired + option.slice(start + option.trim().length),
    span: [start, start + option.trim().length],
  };
}

/** Mangled numbers of one option: at most one spreadsheet date, or its lost exponents. */
export function mangledNumbers(
  index: number,
  choices: readonly string[],
  stem: string,
): MangledNumber[] {
  const option = choices[index] ?? '';
  if (!/\d/.test(option)) return [];
  const date = spreadsheetDate(option, choices, stem);
  if (date) return [date];
  return lostExponents(option, choices, stem);
}

/** The option with its mangled numbers repaired (unchanged when there are none). */
export function repairMangledNumbers(
  index: number,
  choices: readonly string[],
  stem: string,
): string {
  const option = choices[index] ?? '';
  const found = mangledNumbers(index, choices, stem);
  let out = option;
  for (const m of [...found].reverse()) {
    if (m.kind === 'spreadsheet_date') return m.repaired;
    out = out.slice(0, m.span[0]) + m.repaired + out.slice(m.span[1]);
  }
  return out;
}
