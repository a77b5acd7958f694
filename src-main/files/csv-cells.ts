import { parseJsonExact } from '../../src-shared/exact-json.ts';

/**
 * CSV cells. Reading: every cell is a string, except
 * - a number that round-trips exactly (`String(Number(text)) === text`,
 *   finite: "5", "-2", "3.14", "1e+21"; not "05", "1.0", "1e3", " 5", "-0"
 *   or ""), read as that number;
 * - exactly `true` or `false`, read as the boolean;
 * - a cell whose text (trimmed) is a JSON array or object (`[...]`, `{...}`
 *   that parses), read as that value, so nested fields written by
 *   `writeRows` (or by pandas' `to_json`-style exports) come back as they were.
 * Numbers and booleans are read back so that re-importing our own CSV export
 * gives the values that were written (HellaSwag's `ind` stays a number); only
 * the canonical text of a number qualifies, so an ID like "007" or a version
 * like "1.0" keeps its text. A string that merely looks like one of these
 * ("5", "true", "[1, 2]") is read as the value: CSV cannot tell the two apart
 * (`mapRow` retries such a row with every cell as text).
 * Writing: strings as they are, numbers and booleans as their text, null and
 * missing keys as empty cells, arrays and objects as JSON text. For any
 * finite number, boolean, array or object, `decodeCell(encodeCell(v))` is
 * `v` again (-0 comes back as 0).
 */

const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

export function decodeCell(text: string): unknown {
  const first = text.charCodeAt(0);
  // Canonical number text starts with a digit or a minus sign: checking that
  // first keeps `Number()` off the (many, long) cells that are plain text.
  if ((first >= DIGIT_0 && first <= DIGIT_9) || first === MINUS) {
    const number = Number(text);
    return Number.isFinite(number) && String(number) === text ? number : text;
  }
  if (text === 'true') return true;
  if (text === 'false') return false;
  const trimmed = text.trim();
  const head = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if ((head === '[' && last === ']') || (head === '{' && last === '}')) {
    try {
      return parseJsonExact(trimmed);
    } catch {
      return text;
    }
  }
  return text;
}

export function encodeCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}
