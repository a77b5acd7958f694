import type { FieldMapping } from '../../../src-shared/schemas/mapping.ts';
import type { ShapeId } from '../shapes/index.ts';
import { resolveRowMapping, type RowMapping } from './row-mapping.ts';

/**
 * A row mapping as plain data, so that another thread can map rows exactly as
 * this one chose to: the functions of a RowMapping do not cross a
 * `postMessage`, but what they were made from does. The mapping is chosen
 * once, on the file's first rows; its answer form is already in `mapping`.
 */
export interface RowMappingSpec {
  shape: ShapeId;
  mapping: FieldMapping | null;
  /** Each row is a tree read along every path. */
  tree: boolean;
}

export const mappingSpecOf = (mapping: RowMapping): RowMappingSpec => ({
  shape: mapping.shape,
  mapping: mapping.mapping,
  tree: mapping.tree !== undefined,
});

/** The row mapping a spec stands for (no rows are looked at again). */
export function rowMappingOf(spec: RowMappingSpec): RowMapping {
  const resolved =
    spec.shape === 'custom'
      ? resolveRowMapping([], { mapping: spec.mapping ?? undefined })
      : resolveRowMapping([], { shape: spec.shape, paths: spec.tree ? 'all' : undefined });
  if (!resolved) throw new Error(`no row mapping for the shape ${spec.shape}`);
  return resolved;
}
