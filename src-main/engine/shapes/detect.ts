import { isRecord } from './fields.ts';
import { MAPPERS } from './registry.ts';
import type { ShapeId } from './types.ts';

export interface Detection {
  shape: ShapeId;
  matched: number;
  total: number;
  /** matched / total */
  confidence: number;
  /** Every shape that matched a row, most rows first (ties: the more specific shape first). */
  candidates: { shape: ShapeId; matched: number }[];
}

/**
 * The shape of a dataset from its rows (callers pass about the first 100): the
 * shape whose required fields most rows have, the more specific one on ties.
 * Null when no shape matches more than half of the rows.
 */
export function detectShape(rows: readonly unknown[]): Detection | null {
  const candidates = MAPPERS.map((mapper) => ({
    shape: mapper.info.id,
    matched: rows.filter((row) => isRecord(row) && mapper.check(row) === undefined).length,
  }))
    .filter((candidate) => candidate.matched > 0)
    .sort((a, b) => b.matched - a.matched); // stable: ties keep MAPPERS' order
  const best = candidates[0];
  if (!best || best.matched * 2 <= rows.length) return null;
  return {
    shape: best.shape,
    matched: best.matched,
    total: rows.length,
    confidence: best.matched / rows.length,
    candidates,
  };
}
