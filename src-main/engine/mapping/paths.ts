import { isRecord } from '../shapes/fields.ts';
import type { Row } from '../shapes/types.ts';

/**
 * Dotted paths into a row (`meta.question`, `turns.0.text`). A key that holds
 * a dot itself (`"meta.question"` as one key) is matched whole first, so a
 * flat CSV header with dots in it works as well as a nested JSON object.
 */

/** The segments a path takes in `row`: the longest own key first at each level. */
function resolve(row: unknown, path: string): { holder: Row | unknown[]; key: string } | undefined {
  if (Array.isArray(row)) {
    const dot = path.indexOf('.');
    const head = dot < 0 ? path : path.slice(0, dot);
    if (!/^\d+$/.test(head)) return undefined;
    if (dot < 0) return { holder: row, key: head };
    return resolve(row[Number(head)], path.slice(dot + 1));
  }
  if (!isRecord(row)) return undefined;
  if (Object.hasOwn(row, path)) return { holder: row, key: path };
  for (let dot = path.lastIndexOf('.'); dot > 0; dot = path.lastIndexOf('.', dot - 1)) {
    const head = path.slice(0, dot);
    if (Object.hasOwn(row, head)) return resolve(row[head], path.slice(dot + 1));
  }
  return undefined;
}

/** Whether the row has a value (possibly null) at `path`. */
export function hasPath(row: unknown, path: string): boolean {
  const at = resolve(row, path);
  if (!at) return false;
  return Array.isArray(at.holder)
    ? Number(at.key) < at.holder.length
    : Object.hasOwn(at.holder, at.key);
}

/** The value at `path`, or undefined when the row has none. */
export function getPath(row: unknown, path: string): unknown {
  const at = resolve(row, path);
  if (!at) return undefined;
  return Array.isArray(at.holder) ? at.holder[Number(at.key)] : at.holder[at.key];
}

/** The top-level key a path starts with in `row` (what a mapping "owns" at the top). */
export function topKeyOf(row: Row, path: string): string {
  if (Object.hasOwn(row, path)) return path;
  for (let dot = path.lastIndexOf('.'); dot > 0; dot = path.lastIndexOf('.', dot - 1)) {
    const head = path.slice(0, dot);
    if (Object.hasOwn(row, head)) return head;
  }
  const dot = path.indexOf('.');
  return dot < 0 ? path : path.slice(0, dot);
}

/**
 * A copy of `row` with `value` at `path`, every other key in its place (the
 * objects on the way are copied, never mutated). A path the row does not have
 * is created as nested objects; `undefined` removes the key.
 */
export function setPath(row: Row, path: string, value: unknown): Row {
  if (value === undefined && !hasPath(row, path)) return row;
  return setIn(row, path, value) as Row;
}

function setIn(node: unknown, path: string, value: unknown): unknown {
  if (Array.isArray(node)) {
    const dot = path.indexOf('.');
    const head = dot < 0 ? path : path.slice(0, dot);
    const index = Number(head);
    const copy = [...(node as unknown[])];
    copy[index] = dot < 0 ? value : setIn(copy[index], path.slice(dot + 1), value);
    return copy;
  }
  const record: Row = isRecord(node) ? node : {};
  let key = path;
  let rest: string | undefined;
  if (!Object.hasOwn(record, path)) {
    for (let dot = path.lastIndexOf('.'); dot > 0; dot = path.lastIndexOf('.', dot - 1)) {
      if (Object.hasOwn(record, path.slice(0, dot))) {
        key = path.slice(0, dot);
        rest = path.slice(dot + 1);
        break;
      }
    }
    if (rest === undefined && path.includes('.')) {
      const dot = path.indexOf('.');
      key = path.slice(0, dot);
      rest = path.slice(dot + 1);
    }
  }
  const next = rest === undefined ? value : setIn(record[key], rest, value);
  // Object.fromEntries keeps a `__proto__` key an own property, and the key order.
  const entries: [string, unknown][] = [];
  let placed = false;
  for (const [k, v] of Object.entries(record)) {
    if (k !== key) entries.push([k, v]);
    else {
      placed = true;
      if (next !== undefined) entries.push([k, next]);
    }
  }
  if (!placed && next !== undefined) entries.push([key, next]);
  return Object.fromEntries(entries);
}
