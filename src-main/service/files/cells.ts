/**
 * CSV cells. Reading: every cell is a string, except that a cell whose text
 * (trimmed) is a JSON array or object (`[...]`, `{...}` that parses) is read
 * as that value, so nested fields written by `writeRows` (or by pandas'
 * `to_json`-style exports) come back as they were. A string that merely looks
 * like JSON (`"[1, 2]"`) is read as the array: CSV cannot tell the two apart.
 * Writing: strings as they are, numbers and booleans as their text, null and
 * missing keys as empty cells, arrays and objects as JSON text.
 */

export function decodeCell(text: string): unknown {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if ((first === '[' && last === ']') || (first === '{' && last === '}')) {
    try {
      return JSON.parse(trimmed) as unknown;
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
