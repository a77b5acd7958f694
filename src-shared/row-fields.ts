/**
 * A row's fields as a search sees them: every leaf of its JSON (strings,
 * numbers, booleans) under a dotted path of object keys. The items of an
 * array share their array's path, so `dialog.utterance` names the utterance
 * of every turn and `dialog` every turn whole. A key holding a space is text,
 * not a name (TruthfulQA's `mc1_targets` has its answers as keys): it is
 * searched as a leaf of its object's path, and what it holds stays there too.
 * Shared by the service (what a search reads) and the renderer (which fields
 * a search can be limited to).
 */

type Visit = (path: string, text: string) => void;

function walk(value: unknown, path: string, visit: Visit): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, path, visit);
    return;
  }
  if (typeof value === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      if (/\s/.test(key)) {
        visit(path, key);
        walk(inner, path, visit);
      } else walk(inner, path === '' ? key : `${path}.${key}`, visit);
    }
    return;
  }
  if (typeof value === 'string') visit(path, value);
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    visit(path, String(value));
  }
}

/** Whether `path` is `field` or lies under it. */
const under = (path: string, field: string): boolean =>
  path === field || (path.startsWith(field) && path.charAt(field.length) === '.');

/**
 * The text of every leaf of `value` (under `field` when given: that field
 * and what it holds), one leaf a line, so a phrase never spans two fields.
 * Linear in the size of the value.
 */
export function leafText(value: unknown, field?: string): string {
  const texts: string[] = [];
  walk(value, '', (path, text) => {
    if (field === undefined || under(path, field)) texts.push(text);
  });
  return texts.join('\n');
}

/**
 * The fields of a record a search can be limited to: every dotted path of
 * object keys, the objects themselves included (`meta` as well as
 * `meta.src`), in the order first met.
 */
export function fieldPaths(record: unknown): string[] {
  const paths = new Set<string>();
  walk(record, '', (path) => {
    const parts = path.split('.');
    for (let end = 1; end <= parts.length; end++) paths.add(parts.slice(0, end).join('.'));
  });
  return [...paths].filter((path) => path !== '');
}
