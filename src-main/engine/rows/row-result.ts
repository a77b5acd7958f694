import type { Row } from '../shapes/types.ts';

/**
 * One row read from a file: its value, or why it could not be read. `row` is
 * 1-based. `text`: a CSV row with cells read as other than text also carries
 * every cell as the text it was (see `files/cells.ts` and `mapRow`). `raw`:
 * the row's exact source text without its line terminator (a JSON Lines
 * line, a CSV record), so an unchanged row can be written back byte for byte.
 *
 * The file readers make these; the engine maps them, so the type lives here.
 */
export type RowResult =
  | {
      row: number;
      value: Record<string, unknown>;
      text?: Record<string, string>;
      raw?: string;
    }
  | { row: number; error: string; raw?: string };

/** The values of the rows that were read (their errors left out). */
export const valuesOf = (rows: readonly RowResult[]): Row[] =>
  rows.flatMap((r) => ('value' in r ? [r.value] : []));

/**
 * Maps a row with `map`. CSV cannot tell a JSON array from text that looks
 * like one ("[7, 8, 9, 11]" as an Alpaca output), so when the row as read does
 * not map and its cells were read as JSON, it is mapped again with every cell
 * as text. Returns what was mapped and the row it was mapped from (what an
 * export writes back), or throws the first row's error.
 */
export function mapRow<T>(
  result: { value: Record<string, unknown>; text?: Record<string, string> },
  map: (row: Record<string, unknown>) => T,
): { mapped: T; row: Record<string, unknown> } {
  try {
    return { mapped: map(result.value), row: result.value };
  } catch (error) {
    if (!result.text) throw error;
    try {
      return { mapped: map(result.text), row: result.text };
    } catch {
      throw error;
    }
  }
}
