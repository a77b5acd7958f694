import { RESULT_KEYS } from '../../../src-shared/schemas/sample.ts';
import type { Row } from './types.ts';

const RESULT_KEY_SET: ReadonlySet<string> = new Set(RESULT_KEYS);

/**
 * The original row with `patch` written over it: keys keep their original
 * order, keys the patch does not name are untouched, a patch value of
 * `undefined` removes the key, and new keys are appended in patch order.
 * Built with `Object.fromEntries` so a `__proto__` key stays an own property.
 */
export function mergeInOrder(original: Row, patch: Row): Row {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(original)) {
    if (!Object.hasOwn(patch, key)) entries.push([key, value]);
    else if (patch[key] !== undefined) entries.push([key, patch[key]]);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (!Object.hasOwn(original, key) && value !== undefined) entries.push([key, value]);
  }
  return Object.fromEntries(entries);
}

/**
 * The sample's own fields followed by the row's passthrough keys: every key
 * the mapping does not own, except ones that would collide with the sample's
 * fields (`task_type` included) or with the result blocks.
 */
export function withPassthrough(core: Row, row: Row, owned: readonly string[]): Row {
  const skip = new Set([...owned, ...Object.keys(core), 'task_type', ...RESULT_KEY_SET]);
  const entries = Object.entries(core);
  for (const [key, value] of Object.entries(row)) {
    if (!skip.has(key)) entries.push([key, value]);
  }
  return Object.fromEntries(entries);
}

/** The row without the service's result blocks. */
export function withoutResultKeys(row: Row): Row {
  return Object.fromEntries(Object.entries(row).filter(([key]) => !RESULT_KEY_SET.has(key)));
}
