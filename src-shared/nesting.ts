/**
 * The documented limit on passthrough metadata: a value kept in a sample may
 * nest at most this many objects or arrays deep. Deeper is refused before any
 * work: serialising and copying such values walks them recursively, and a
 * few thousand levels would overflow the stack after the work was done.
 */
export const MAX_METADATA_DEPTH = 64;

/**
 * The path to the first object or array nested deeper than `max` levels
 * below `root`'s members (a member that is an object or array is level 1),
 * or null. Iterative, and it never descends past `max + 1` levels, so any
 * depth is checked in bounded stack and time proportional to what it visits.
 */
export function tooDeepAt(root: unknown, max: number): (string | number)[] | null {
  const stack: { value: unknown; depth: number; path: (string | number)[] }[] = [];
  const push = (value: unknown, depth: number, path: (string | number)[]): void => {
    if (value !== null && typeof value === 'object') stack.push({ value, depth, path });
  };
  if (root === null || typeof root !== 'object') return null;
  for (const [key, value] of Object.entries(root)) push(value, 1, [key]);
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, depth, path } = next;
    if (depth > max) return path;
    if (Array.isArray(value)) value.forEach((child, i) => push(child, depth + 1, [...path, i]));
    else
      for (const [key, child] of Object.entries(value as object))
        push(child, depth + 1, [...path, key]);
  }
  return null;
}
