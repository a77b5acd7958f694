/**
 * JSON whose integers survive a round trip, however long. `JSON.parse` reads
 * every number as a double, so an integer beyond 2^53 (a tweet's or a
 * snowflake id, a 64-bit hash) comes back changed: 1234567890123456789 is
 * written again as 1234567890123456800, in the data a person meant to clean.
 * Here such an integer is read as a BigInt (exact, and a structured clone
 * carries it between threads, which `JSON.rawJSON` values cannot), and a
 * BigInt is written by `JSON.stringify` as its digits, unquoted.
 *
 * Hand-written rather than a library's (json-bigint, lossless-json): those
 * parse in JavaScript, several times slower than the engine's own parser on
 * every row; here a row is parsed by V8 as before and its values looked over
 * (2-7% of the parse on GSM8K and OASST rows), and only a row holding a large
 * integer is parsed again, with a reviver that reads the number's source
 * (Node 22+, ES2025's JSON.parse source text access).
 */

declare global {
  interface BigInt {
    toJSON(): unknown;
  }
  interface JSON {
    /** ES2025's raw JSON text (V8 11.4 on): `JSON.stringify` writes it as it is. */
    rawJSON(text: string): unknown;
  }
}

/** Written as its digits: `JSON.stringify({ id: 2n ** 64n })` is `{"id":18446744073709551616}`. */
function bigintJson(this: bigint): unknown {
  return JSON.rawJSON(this.toString());
}

// Once per thread (every thread that loads this module: the ones that parse rows and the ones
// they hand rows to import it). Not enumerable, as the built-ins' own methods are not.
if (!Object.hasOwn(BigInt.prototype, 'toJSON')) {
  Object.defineProperty(BigInt.prototype, 'toJSON', {
    value: bigintJson,
    writable: true,
    configurable: true,
  });
}

const INTEGER = /^-?\d+$/;

/** A number read from its source: a BigInt for an integer a double cannot hold exactly. */
export function exactNumber(source: string): number | bigint {
  const value = Number(source);
  return Number.isSafeInteger(value) || !INTEGER.test(source) ? value : BigInt(source);
}

function reviveExact(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value) || context?.source === undefined) {
    return value;
  }
  return exactNumber(context.source);
}

/**
 * Whether a parsed value holds a number that may have been rounded: an integer
 * outside the safe range (every integer literal past 2^53 parses to one).
 * Walking the parsed value costs a row a few dozen nanoseconds a field, where
 * scanning its text for a run of digits cost as much as parsing it.
 */
function holdsLargeInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsLargeInteger(item)) return true;
    return false;
  }
  for (const key in value) {
    if (holdsLargeInteger((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * `JSON.parse`, but an integer beyond 2^53 is a BigInt. Everything else is
 * what `JSON.parse` gives (a fraction or an exponent stays a double), and so
 * are its errors. A value holding no large integer is parsed once; one that
 * does is parsed again, with a reviver that reads each number's source text.
 */
export function parseJsonExact(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return holdsLargeInteger(value) ? JSON.parse(text, reviveExact) : value;
}

const utf8 = new TextDecoder();

/** parseJsonExact of UTF-8 bytes (a Parquet JSON column, an answer encoded on another thread). */
export function parseJsonExactBytes(bytes: Uint8Array): unknown {
  return parseJsonExact(utf8.decode(bytes));
}

/**
 * `value` with each BigInt in it as raw JSON text (a copy only where one is
 * found), for a writer that turns a BigInt into a double before it calls
 * `JSON.stringify` (hyparquet-writer's JSON columns): raw JSON passes that
 * step as it is, and is written as its digits.
 */
export function bigintsAsRawJson(value: unknown): unknown {
  if (typeof value === 'bigint') return JSON.rawJSON(value.toString());
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value as unknown[];
    let copy: unknown[] | undefined;
    items.forEach((item, i) => {
      const next = bigintsAsRawJson(item);
      if (next !== item) (copy ??= [...items])[i] = next;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const next = bigintsAsRawJson(item);
    if (next !== item) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}
