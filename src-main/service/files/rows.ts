/** One row read from a file: its value, or why it could not be read. `row` is 1-based. */
export type RowResult =
  { row: number; value: Record<string, unknown> } | { row: number; error: string };

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `an array`, `a number`, `null`, ... for messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}

/** A parsed value as a row: objects are rows, anything else is a row error. */
export function toRow(row: number, value: unknown): RowResult {
  return isObject(value)
    ? { row, value }
    : { row, error: `expected a JSON object, got ${kindOf(value)}` };
}
