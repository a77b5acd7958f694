/** What a parsed JSON value is: a row-shaped object or not, and its kind in words for messages. */

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `an array`, `a number`, `null`, ... for messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  // An integer past 2^53 is read as a BigInt (src-shared/exact-json.ts): to a person, a number.
  if (type === 'bigint') return 'a number';
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}
