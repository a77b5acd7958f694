/**
 * A tiny arithmetic evaluator for worked solutions and arithmetic questions:
 * numbers, + - * / ^ and parentheses, with the Unicode signs × ÷ − and
 * thousands separators. Written here rather than taken from a package: the
 * expression libraries on npm evaluate far more (functions, variables,
 * assignment) than a label check should ever run, and this grammar is small.
 * Returns null for anything outside the grammar.
 */

type Token = { kind: 'num'; value: number } | { kind: 'op'; value: string };

const NUMBER = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|^\.\d+/;

function tokenize(expression: string): Token[] | null {
  const source = expression
    .replace(/[×xX]/g, '*')
    .replace(/÷/g, '/')
    .replace(/[−–]/g, '-')
    .replace(/\*\*/g, '^');
  const tokens: Token[] = [];
  let rest = source.trim();
  while (rest.length > 0) {
    const number = NUMBER.exec(rest);
    if (number) {
      tokens.push({ kind: 'num', value: Number(number[0].replaceAll(',', '')) });
      rest = rest.slice(number[0].length).trimStart();
      continue;
    }
    const op = rest[0] ?? '';
    if (!'+-*/^()'.includes(op)) return null;
    tokens.push({ kind: 'op', value: op });
    rest = rest.slice(1).trimStart();
  }
  return tokens;
}

/** Recursive descent: sum := product (('+'|'-') product)*; product := power (('*'|'/') power)*; power := unary ('^' power)?. */
export function evaluate(expression: string): number | null {
  const tokens = tokenize(expression);
  if (!tokens || tokens.length === 0) return null;
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isOp = (value: string): boolean => {
    const token = peek();
    return token?.kind === 'op' && token.value === value;
  };

  function unary(): number | null {
    if (isOp('-')) {
      position++;
      const value = unary();
      return value === null ? null : -value;
    }
    if (isOp('+')) {
      position++;
      return unary();
    }
    if (isOp('(')) {
      position++;
      const value = sum();
      if (!isOp(')')) return null;
      position++;
      return value;
    }
    const token = peek();
    if (token?.kind !== 'num') return null;
    position++;
    return token.value;
  }
  function power(): number | null {
    const base = unary();
    if (base === null) return null;
    if (isOp('^')) {
      position++;
      const exponent = power();
      return exponent === null ? null : base ** exponent;
    }
    return base;
  }
  function product(): number | null {
    let value = power();
    while (value !== null && (isOp('*') || isOp('/'))) {
      const op = (peek() as Token).value;
      position++;
      const right = power();
      if (right === null) return null;
      value = op === '*' ? value * right : right === 0 ? null : value / right;
    }
    return value;
  }
  function sum(): number | null {
    let value = product();
    while (value !== null && (isOp('+') || isOp('-'))) {
      const op = (peek() as Token).value;
      position++;
      const right = product();
      if (right === null) return null;
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  const result = sum();
  return result !== null && position === tokens.length && Number.isFinite(result) ? result : null;
}

/** Parses a stated number: "1,250", "$18", "-3.5", "60%". */
export function parseStatedNumber(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/%$/, '').replace(/\.$/, '').trim();
  if (!/^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned.replaceAll(',', ''));
}

/**
 * Does `computed` agree with a `stated` result? Stated results are often
 * rounded ("10/3=3.33"), so agreement is judged at the stated precision.
 */
export function agrees(computed: number, stated: number, statedText: string): boolean {
  if (Math.abs(computed - stated) <= 1e-9 * Math.max(1, Math.abs(stated))) return true;
  const decimals = /\.(\d+)/.exec(statedText)?.[1]?.length ?? 0;
  const scale = 10 ** decimals;
  return (
    Math.abs(Math.round(computed * scale) / scale - stated) <= 1e-9 * Math.max(1, Math.abs(stated))
  );
}

/** Formats a computed value as a dataset would write it (no float noise). */
export function formatNumber(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}
