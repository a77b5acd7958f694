import { AppError } from '../../../src-shared/errors.ts';
import type { Sample, TaskType } from '../../../src-shared/schemas/sample.ts';
import type { Row, ShapeInfo } from './types.ts';

/** Field checks: each returns the problem with a field (naming it), or undefined when it is fine. */
export type Problem = string | undefined;

export function isRecord(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** `a string`, `an array`, `null`, ... for messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  // An integer past 2^53 is read as a BigInt (src-shared/exact-json.ts): to a person, a number.
  if (type === 'bigint') return 'a number';
  return type === 'object' ? `an ${type}` : `a ${type}`;
}

/**
 * What a value is instead of the one wanted, for "must be text, ...":
 * `not an array`, `not null`; `but it is missing` for a key the row lacks
 * (never "not an undefined").
 */
export function instead(value: unknown): string {
  return value === undefined ? 'but it is missing' : `not ${describe(value)}`;
}

function present(row: Row, key: string, name: string): Problem {
  return Object.hasOwn(row, key) ? undefined : `"${name}" is missing`;
}

export function stringField(row: Row, key: string, name = key): Problem {
  return (
    present(row, key, name) ??
    (typeof row[key] === 'string' ? undefined : `"${name}" must be a string, ${instead(row[key])}`)
  );
}

export function stringArrayField(row: Row, key: string, name = key): Problem {
  return (
    present(row, key, name) ??
    (isStringArray(row[key]) ? undefined : `"${name}" must be an array of strings`)
  );
}

export function recordField(row: Row, key: string, name = key): Problem {
  return (
    present(row, key, name) ??
    (isRecord(row[key]) ? undefined : `"${name}" must be an object, ${instead(row[key])}`)
  );
}

/** A non-negative integer, or its decimal text (`"3"`), as HellaSwag and CSV files have it. */
export function parseIndex(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
  return undefined;
}

/** The error `rowToSample` and `sampleToRow` throw for a row or sample a shape cannot take. */
export function misfit(info: ShapeInfo, problem: string): AppError {
  return new AppError('invalid_request', `row does not fit ${info.label}: ${problem}`);
}

/** The index written back in the type the original used: a number stays a number, text stays text. */
export function indexLike(original: unknown, index: number): number | string {
  return typeof original === 'string' ? String(index) : index;
}

/** The sample as the task type a shape writes back, or a clear error when it is another one. */
export function sampleOf<T extends TaskType>(
  sample: Sample,
  taskType: T,
  info: ShapeInfo,
): Extract<Sample, { task_type: T }> {
  if (sample.task_type !== taskType) {
    throw misfit(info, `a ${sample.task_type} sample cannot be written back as ${taskType}`);
  }
  return sample as Extract<Sample, { task_type: T }>;
}

/** A value as messages quote it: strings in quotes, anything else by its kind. */
export function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describe(value);
}

/** A field that `parse` reads as an index; the problem says what was `expected`. */
export function indexField(
  row: Row,
  key: string,
  parse: (value: unknown) => number | undefined,
  expected: string,
): Problem {
  return (
    present(row, key, key) ??
    (parse(row[key]) === undefined
      ? `"${key}" must be ${expected}, not ${shown(row[key])}`
      : undefined)
  );
}

/** A non-empty array of objects, each checked by `each` (given its place, e.g. `messages[2]`). */
export function objectListField(
  row: Row,
  key: string,
  each: (item: Row, where: string) => Problem,
): Problem {
  const problem = present(row, key, key);
  if (problem) return problem;
  const items = row[key];
  if (!Array.isArray(items)) return `"${key}" must be an array, ${instead(items)}`;
  if (items.length === 0) return `"${key}" is empty`;
  for (const [i, item] of items.entries()) {
    const where = `${key}[${i}]`;
    const itemProblem = isRecord(item)
      ? each(item, where)
      : `"${where}" must be an object, ${instead(item)}`;
    if (itemProblem) return itemProblem;
  }
  return undefined;
}
