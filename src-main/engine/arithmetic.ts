/**
 * A tiny arithmetic evaluator for worked solutions and arithmetic questions:
 * numbers, + - * / ^ and parentheses, with the Unicode signs × ÷ − and
 * thousands separators. Written here rather than taken from a package: the
 * expression libraries on npm evaluate far more (functions, variables,
 * assignment) than a label check should ever run, and this grammar is small.
 * Returns null for anything outside the grammar.
 */

type Token = { kind: 'num'; value: number } | { kind: 'op'; value: string };

const NUMBER = /(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+/y;
/**
 * "3 x 4" and "3X4" use a letter as the times sign, but only between two
 * numbers: anywhere else ("3x + 2") the letter is a variable, and an
 * expression with a variable has no value.
 */
const LETTER_TIMES = /(?<=\d\s*)[xX](?=\s*\.?\d)/g;
/** "0x1F" is a hexadecimal literal, not "0 times 1F". */
const HEX_LITERAL = /\b0x[\da-f]/i;
/**
 * How deeply parentheses, signs and powers may nest. Nobody asks for more than
 * a handful of levels; beyond this the expression is not judged (null) rather
 * than recursed into until the stack overflows.
 */
export const MAX_NESTING = 64;

/** The expression with "x" and "X" read as times signs where they stand between numbers. */
export const withTimesSigns = (expression: string): string => expression.replace(LETTER_TIMES, '*');

function tokenize(expression: string): Token[] | null {
  if (HEX_LITERAL.test(expression)) return null;
  const source = withTimesSigns(expression)
    .replace(/×/g, '*')
    .replace(/÷/g, '/')
    .replace(/[−–]/g, '-')
    .replace(/\*\*/g, '^');
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at] ?? '';
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(source);
    if (number) {
      tokens.push({ kind: 'num', value: Number(number[0].replaceAll(',', '')) });
      at += number[0].length;
      continue;
    }
    if (!'+-*/^()'.includes(char)) return null;
    tokens.push({ kind: 'op', value: char });
    at++;
  }
  return tokens;
}

/**
 * Recursive descent, with the usual precedence (the power binds tighter than
 * a sign: -3^2 is -9, 2^-1 is 0.5, 2^3^2 is 2^9):
 * sum := product (('+'|'-') product)*; product := signed (('*'|'/') signed)*;
 * signed := ('-'|'+') signed | power; power := primary ('^' signed)?;
 * primary := number | '(' sum ')'.
 */
export function evaluate(expression: string): number | null {
  const tokens = tokenize(expression);
  if (!tokens || tokens.length === 0) return null;
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isOp = (value: string): boolean => {
    const token = peek();
    return token?.kind === 'op' && token.value === value;
  };

  function primary(depth: number): number | null {
    if (isOp('(')) {
      position++;
      const value = sum(depth + 1);
      if (value === null || !isOp(')')) return null;
      position++;
      return value;
    }
    const token = peek();
    if (token?.kind !== 'num') return null;
    position++;
    return token.value;
  }
  function power(depth: number): number | null {
    const base = primary(depth);
    if (base === null) return null;
    if (!isOp('^')) return base;
    position++;
    const exponent = signed(depth + 1);
    return exponent === null ? null : base ** exponent;
  }
  function signed(depth: number): number | null {
    if (depth > MAX_NESTING) return null;
    if (isOp('-') || isOp('+')) {
      const negative = isOp('-');
      position++;
      const value = signed(depth + 1);
      return value === null ? null : negative ? -value : value;
    }
    return power(depth);
  }
  function product(depth: number): number | null {
    let value = signed(depth);
    while (value !== null && (isOp('*') || isOp('/'))) {
      const op = (peek() as Token).value;
      position++;
      const right = signed(depth);
      if (right === null) return null;
      value = op === '*' ? value * right : right === 0 ? null : value / right;
    }
    return value;
  }
  function sum(depth: number): number | null {
    let value = product(depth);
    while (value !== null && (isOp('+') || isOp('-'))) {
      const op = (peek() as Token).value;
      position++;
      const right = product(depth);
      if (right === null) return null;
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  const result = sum(0);
  return result !== null && position === tokens.length && Number.isFinite(result) ? result : null;
}

const PLAIN_NUMBER = /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/;

/** Digits, with a leading minus sign at most: what the clean-up and PLAIN_NUMBER pass unchanged. */
function isBareInteger(text: string): boolean {
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (i >= text.length) return false;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** Parses a stated number: "1,250", "$18", "-3.5", "60%". */
export function parseStatedNumber(text: string): number | null {
  // Most stated numbers are bare integers ("48", "-3"): read without the clean-up below.
  if (isBareInteger(text)) return Number(text);
  const cleaned = text.trim().replace(/^\$/, '').replace(/%$/, '').replace(/\.$/, '').trim();
  if (!PLAIN_NUMBER.test(cleaned)) return null;
  return Number(cleaned.replaceAll(',', ''));
}

export interface ExactNumber {
  value: number;
  /** The text as written, which `agrees` reads the stated precision from. */
  text: string;
}

const FRACTION = /^(-)?(?:(\d+)\s+)?(\d+)\s*\/\s*(\d+)$/;

/**
 * A number as a choice or a short answer states it: a plain number ("18",
 * "$1,250", "3.5"), a fraction ("3/4", "-1/2") or a mixed number ("3 3/4").
 * Null for anything else: percentages, units ("34 years"), words.
 */
export function parseNumberOrFraction(text: string): ExactNumber | null {
  const cleaned = text
    .trim()
    .replace(/[−–]/g, '-')
    .replace(/^(-?)\$/, '$1')
    .replace(/\.$/, '')
    .trim();
  if (PLAIN_NUMBER.test(cleaned)) return { value: Number(cleaned.replaceAll(',', '')), text };
  const m = FRACTION.exec(cleaned);
  if (!m) return null;
  const [, minus, whole = '0', numerator = '', denominator = ''] = m;
  if (Number(denominator) === 0) return null;
  const value = Number(whole) + Number(numerator) / Number(denominator);
  // A fraction has no decimals in its text, so `agrees` asks for exact equality.
  return { value: minus ? -value : value, text };
}

/** Floating-point noise, relative: a few operations on doubles stay far below it. */
const noise = (value: number): number => 1e-12 * Math.max(1, Math.abs(value));

/** Equal but for floating-point noise (0.1 + 0.2 is 0.3). */
export function same(a: number, b: number): boolean {
  return Math.abs(a - b) <= noise(b);
}

/**
 * Does `computed` agree with a `stated` result? A result written with d
 * decimals ("10/3=3.33") is a rounding and agrees when `computed` rounds to it
 * at d decimals; a result written without decimals is exact, so 3 does not
 * agree with 10/3 and 4 does not agree with 7/2.
 */
export function agrees(computed: number, stated: number, statedText: string): boolean {
  if (same(computed, stated)) return true;
  const decimals = /\.(\d+)/.exec(statedText)?.[1]?.length ?? 0;
  if (decimals === 0) return false;
  // Within half a unit of the last stated decimal: rounding either way at a tie.
  return Math.abs(computed - stated) <= 0.5 / 10 ** decimals + noise(stated);
}

/** Formats a computed value as a dataset would write it (no float noise). */
export function formatNumber(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}
