import type { RowResult } from '../engine/rows/row-result.ts';

/** One row read from a file (the engine maps it to samples, so it defines the type). */
export type { RowResult };

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

/** A parsed value as a row: objects are rows, anything else is a row error. `raw`: its source text. */
export function toRow(row: number, value: unknown, raw?: string): RowResult {
  const result: RowResult = isObject(value)
    ? { row, value }
    : { row, error: `expected a JSON object, got ${kindOf(value)}` };
  if (raw !== undefined) result.raw = raw;
  return result;
}
