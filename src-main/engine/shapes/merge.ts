import {
  ConversationSample,
  MultipleChoiceSample,
  QuestionAnswerSample,
  RESULT_KEYS,
  TextSample,
  type Sample,
  type TaskType,
} from '../../../src-shared/schemas/sample.ts';
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

/** A sample's own fields by task type: every other key of a sample is passthrough metadata. */
const OWN_FIELDS: Record<TaskType, ReadonlySet<string>> = {
  text: new Set(Object.keys(TextSample.shape)),
  multiple_choice: new Set(Object.keys(MultipleChoiceSample.shape)),
  question_answer: new Set(Object.keys(QuestionAnswerSample.shape)),
  conversation: new Set(Object.keys(ConversationSample.shape)),
};

/**
 * The passthrough keys whose value the sample changed or added, to write
 * over the original row: a person's edit of a metadata field (a label, a
 * comment, an id) goes out with the row. The engine never changes them, so
 * a fix's row gets nothing here. A key the sample lacks is left as it is in
 * the row: a sample may carry fewer keys than its row (ones that collided
 * with its own fields), and nothing is removed that a person did not name.
 */
export function passthroughEdits(sample: Sample, original: Row, owned: readonly string[]): Row {
  const own = OWN_FIELDS[sample.task_type];
  const patch: Row = {};
  for (const [key, value] of Object.entries(sample)) {
    if (own.has(key) || RESULT_KEY_SET.has(key) || owned.includes(key)) continue;
    if (Object.hasOwn(original, key) && sameJson(original[key], value)) continue;
    patch[key] = value;
  }
  return patch;
}

/**
 * Whether two JSON values are the same value (as JSON writes them: -0 is 0).
 * `isDeepStrictEqual` tells -0 from 0, and a row's -0 would have been
 * written back as 0 over the bytes it came with.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && sameJson((a as Row)[key], (b as Row)[key]));
}
