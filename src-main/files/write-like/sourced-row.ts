/**
 * A row on its way back to the user's file: its value, its source text where
 * the format has one, and whether a repair changed it.
 */
export interface SourcedRow {
  value: Record<string, unknown>;
  raw?: string | null | undefined;
  changed: boolean;
}
