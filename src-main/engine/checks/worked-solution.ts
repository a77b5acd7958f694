import { numberWords } from '../number-words.ts';
import { agrees, evaluate, parseNumberOrFraction, parseStatedNumber, same } from '../arithmetic.ts';

/**
 * Reading GSM8K-style worked solutions: calculator annotations
 * (`<<48/2=24>>24`), plain equations (`99 + 5 = $104`) and the final
 * `#### N` line.
 */

export interface Annotation {
  /** Offset of `<<` in the answer. */
  index: number;
  length: number;
  expression: string;
  stated: string;
  computed: number | null;
  /** The number written right after `>>`, if any, and where. */
  visible?: { text: string; index: number };
}

/**
 * The number written after `>>` is read whole: a fraction ("3/4") or a mixed
 * number ("1 1/2") is not its first digits. An annotation stays on its line:
 * code's shifts (`1 << count` ... `temp >>= 1` lines apart) are none.
 */
const ANNOTATION = /<<([^<>=\n]+)=([^<>\n]+)>>(\$?-?[\d,]*\.?\d+(?:\/\d+|\s\d+\/\d+)?)?/g;

export function annotations(answer: string): Annotation[] {
  if (!answer.includes('<<')) return [];
  return [...answer.matchAll(ANNOTATION)].map((m) => {
    const [whole, expression = '', stated = '', visible] = m;
    const annotation: Annotation = {
      index: m.index,
      length: whole.length - (visible?.length ?? 0),
      expression,
      stated,
      computed: evaluate(expression),
    };
    if (visible) {
      annotation.visible = {
        text: visible.replace(/^\$/, ''),
        index: m.index + whole.length - visible.replace(/^\$/, '').length,
      };
    }
    return annotation;
  });
}

/**
 * A number as a worked solution states it, read whole: "1,250", "$18",
 * "60%", and fractions and mixed numbers ("3/4", "1 1/2").
 */
export function readStatedNumber(text: string): number | null {
  return parseStatedNumber(text) ?? parseNumberOrFraction(text)?.value ?? null;
}

export function annotationIsWrong(a: Annotation): boolean {
  const stated = readStatedNumber(a.stated);
  return a.computed !== null && stated !== null && !agrees(a.computed, stated, a.stated);
}

/** The number at the start of a visible result: "3" of "3/4", "10" of "10 1/2". */
const LEADING_NUMBER = /^-?[\d,]*\.?\d+/;

/**
 * What of the number written after an annotation states its result: the
 * number read whole ("3/4", "1 1/2") or, failing that, its first number
 * ("10" of "10 1/2 pounds"); null when neither does (or nothing is written).
 * Numbers compare by value ("16.00" is 16, "1,000" is 1000); a result that
 * is no number compares as written.
 */
export function visibleEcho(a: Annotation): string | null {
  if (!a.visible) return null;
  const leading = LEADING_NUMBER.exec(a.visible.text)?.[0] ?? a.visible.text;
  const stated = readStatedNumber(a.stated);
  const written = a.stated.trim().replaceAll(',', '');
  const echoes = (text: string): boolean => {
    if (stated === null) return text.replaceAll(',', '') === written;
    const value = readStatedNumber(text);
    return value !== null && same(value, stated);
  };
  return [a.visible.text, leading].find(echoes) ?? null;
}

/** Whether a number is written after an annotation and says something else than its result. */
export const visibleDisagrees = (a: Annotation): boolean =>
  a.visible !== undefined && visibleEcho(a) === null;

export interface PlainEquation {
  index: number;
  expression: string;
  stated: string;
  computed: number;
  /** "3 / 6 = 50%": the result is written as a percentage. */
  percent: boolean;
  /**
   * A factor stands before the expression ("(1/2) 278 + 11 = 150", "half of
   * 40 + 2 = 22"): what is written is not all that was computed, so the
   * equation is not judged.
   */
  coefficient: boolean;
}

/** Text right before an expression that multiplies it: a closing parenthesis, "half of", "20% of", "twice". */
const COEFFICIENT_BEFORE =
  /(?:\)|%|\b(?:half|third|thirds|quarter|quarters|fifth|fifths|twice|double|triple|thrice|times|percent))\s*(?:of\s*)?(?:\$\s*)?$/i;

/**
 * `a op b [op c] = r` written in prose, outside annotations. Only sides made
 * purely of numbers and operators are judged; anything with units, words or
 * mixed fractions is left alone. The minus may be written as a dash ("120 –
 * 80 - 15 = 25"): read otherwise, the equation would be "80 - 15 = 25".
 */
const PLAIN = new RegExp(
  // not inside a longer expression, a mixed number ("3 1/2") or a spaced thousand ("350 000"),
  // nor an exponent, a bracket's or a LaTeX operator's operand ("x^2-9=0", "(y-3)^2 -25 = 0",
  // "20 \cdot 21/2 = 1050")
  String.raw`(?<![\d.,<=$/+*×÷−–xX^)}-]\s*)(?<![A-Za-z_])(?<!\\[A-Za-z]+\s*)` +
    String.raw`((?:\$?\d[\d,]*(?:\.\d+)?\s*[-+*/×÷x−–]\s*)+\$?\d[\d,]*(?:\.\d+)?)` +
    String.raw`\s*=\s*\$?(-?\d[\d,]*(?:\.\d+)?)(%?)` +
    // the result must end there: not "= 3 1/2", "= 409 500", "= 4 * 12", "= 24 + w", "= 2^6",
    // "= 2(4)", "= 68\frac{5}{7}", "= 0.\overline{3}" or "=...>>"
    String.raw`(?![\w/^(\\]|\.[\d\\]|\s+\d|\s*[-+*/×÷x−–]\s*[\w(\\]|>>)`,
  'g',
);

export function plainEquations(answer: string): PlainEquation[] {
  const prose = answer.replace(/<<[^<>\n]*>>/g, (m) => ' '.repeat(m.length));
  const found: PlainEquation[] = [];
  for (const m of prose.matchAll(PLAIN)) {
    const expression = (m[1] ?? '').replaceAll('$', '');
    const computed = evaluate(expression);
    if (computed === null) continue;
    const coefficient = COEFFICIENT_BEFORE.test(prose.slice(Math.max(0, m.index - 16), m.index));
    found.push({
      index: m.index,
      expression,
      stated: m[2] ?? '',
      computed,
      percent: m[3] === '%',
      coefficient,
    });
  }
  return found;
}

export function equationIsWrong(e: PlainEquation): boolean {
  if (e.coefficient) return false;
  const stated = parseStatedNumber(e.stated);
  if (stated === null) return false;
  if (agrees(e.computed, stated, e.stated)) return false;
  return !(e.percent && agrees(e.computed * 100, stated, e.stated));
}

export interface FinalAnswer {
  text: string;
  value: number | null;
  /** Offset of the value inside the answer. */
  index: number;
}

const FINAL = /\n?####\s*([^\n]*?)\s*$/;

export function finalAnswer(answer: string): FinalAnswer | null {
  const m = FINAL.exec(answer);
  if (!m) return null;
  const text = m[1] ?? '';
  return { text, value: readStatedNumber(text), index: m.index + m[0].lastIndexOf(text) };
}

/** The solution before the `####` line. */
export function solutionBody(answer: string): string {
  const m = FINAL.exec(answer);
  return m ? answer.slice(0, m.index) : answer;
}

/** Every number stated in a text, as values. */
export function statedNumbers(text: string): number[] {
  // "118 000": thousands grouped with spaces count as one number (and so does each group).
  const grouped = (text.match(/\d{1,3}(?:[ \u00a0\u202f]\d{3})+/g) ?? []).map((n) =>
    n.replace(/[ \u00a0\u202f]/g, ''),
  );
  return [...(text.match(/-?\d[\d,]*(?:\.\d+)?/g) ?? []), ...grouped]
    .map((n) => parseStatedNumber(n))
    .filter((n): n is number => n !== null);
}

/** Whether one of `statedNumbers(text)` equals `value`, stopping at the first that does. */
function statesInDigits(text: string, value: number): boolean {
  for (const m of text.matchAll(/-?\d[\d,]*(?:\.\d+)?/g)) {
    const n = parseStatedNumber(m[0]);
    if (n !== null && same(n, value)) return true;
  }
  for (const m of text.matchAll(/\d{1,3}(?:[ \u00a0\u202f]\d{3})+/g)) {
    const n = parseStatedNumber(m[0].replace(/[ \u00a0\u202f]/g, ''));
    if (n !== null && same(n, value)) return true;
  }
  return false;
}

/** A fraction or a mixed number ("3/4", "1 1/2") in the text, read whole, equal to `value`. */
function statesAsFraction(text: string, value: number): boolean {
  for (const m of text.matchAll(/(?<![\d.,/])(?:\d+\s+)?\d+\s*\/\s*\d+(?![\d.,/])/g)) {
    const n = parseNumberOrFraction(m[0]);
    if (n !== null && same(n.value, value)) return true;
  }
  return false;
}

/**
 * Unit conversions a final answer may make from the solution's last value,
 * each allowed only when the solution speaks of the units: dollars and cents
 * (a final "#### 10" for "$0.10"), percentages, hours and minutes, thousands.
 */
function conversions(body: string): number[] {
  const factors: number[] = [];
  if (/\$|\bcents?\b|\bdollars?\b|%|\bpercent/i.test(body)) factors.push(100);
  if (/\b(?:hours?|minutes?|seconds?)\b/i.test(body)) factors.push(60);
  if (/\b(?:thousands?|kilo\w*|k[gm]|grams?|meters?|metres?|liters?|litres?|ml)\b/i.test(body)) {
    factors.push(1000);
  }
  return factors;
}

/**
 * Does some value `text` states (in digits, else in words, else converted by a
 * unit the solution `body` names) equal the final one? In that order: the
 * cheap reading settles nearly every solution.
 */
function states(text: string, value: number, body: string, fractions: boolean): boolean {
  // Most solutions state the value in digits: found without reading every number into a list.
  if (statesInDigits(text, value)) return true;
  if (fractions && statesAsFraction(text, value)) return true;
  const digits = statedNumbers(text);
  if (digits.some((n) => same(n, value))) return true;
  const values = [...digits, ...numberWords(text)];
  if (values.length > digits.length && values.some((n) => same(n, value))) return true;
  return conversions(body).some((f) =>
    values.some((n) => same(n * f, value) || same(n / f, value)),
  );
}

export const isWorkedSolution = (answer: string): boolean =>
  answer.includes('<<') || (answer.includes('\n') && /\d/.test(answer));

/**
 * Why a worked solution does not support its final value, or null when it
 * does. Both sides are stated numbers, so they must be equal, not merely
 * equal after rounding (8.5 in the work does not support "#### 9"). A GSM8K
 * solution (calculator annotations) concludes on its last line, so the value
 * must be stated there: a changed final answer that happens to equal some
 * intermediate result is still caught. On the 300 real GSM8K items neither
 * rule fires; of 1,200 altered final answers (+1, -1, +7, +10) 16 slip
 * through, all equal to another number on the last line.
 */
export function unsupportedReason(body: string, value: number, text: string): string | null {
  // A final answer written as a fraction ("#### 3/4") is looked for as one.
  const fractions = text.includes('/');
  if (!states(body, value, body, fractions)) {
    return `the final answer ${text} appears nowhere in its own solution`;
  }
  if (!body.includes('<<')) return null;
  return states(lastLine(body), value, body, fractions)
    ? null
    : `the final answer ${text} is not what the solution's last line concludes`;
}

/** The last non-blank line of a solution. */
export function lastLine(body: string): string {
  return (
    body
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? ''
  );
}
