import type { RowResult } from '../../engine/rows/row-result.ts';
import { isObject, kindOf } from '../values.ts';

/** One row read from a file (the engine maps it to samples, so it defines the type). */
export type { RowResult };

/** A parsed value as a row: objects are rows, anything else is a row error. `raw`: its source text. */
export function toRow(row: number, value: unknown, raw?: string): RowResult {
  const result: RowResult = isObject(value)
    ? { row, value }
    : { row, error: `expected a JSON object, got ${kindOf(value)}` };
  if (raw !== undefined) result.raw = raw;
  return result;
}
