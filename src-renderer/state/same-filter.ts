import type { RowFilter } from '../../src-shared/owner/datasets.ts';

/** Whether two filters select the same rows (keys in any order; unset and undefined alike). */
export function sameFilter(a: RowFilter, b: RowFilter): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof RowFilter)[]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
