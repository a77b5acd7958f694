import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import { isObject } from '../values.ts';

/**
 * Write a repaired JSON value back over its source line, changing only the
 * bytes of what changed: untouched values keep their source spelling (`1.0`,
 * `\u00e9`, `\/`, key order, spacing) and new text follows the line's style.
 */

/** How a JSON line is written, as far as new text needs to match it. */
export interface JsonStyle {
  /** Text between a key and its value: `": "` (Python's json.dumps) or `":"`. */
  keySeparator: string;
  /** Text between an item and the next: `", "` (Python's json.dumps) or `","`. */
  itemSeparator: string;
  /** Characters from U+0080 up are written as `\uXXXX` (Python's ensure_ascii). */
  asciiOnly: boolean;
}

/**
 * The style of a raw line, read from the text between keys and values and
 * between items (strings skipped; the most common spelling wins, ties go to
 * the first). A line showing only one separator implies the other; a line
 * showing neither (`{}`, `[]`, a scalar) is taken as compact, JSON.stringify's
 * style. Works on broken lines too, since it is the fallback's style.
 */
export function detectJsonStyle(raw: string): JsonStyle {
  const keySeparators = new Map<string, number>();
  const itemSeparators = new Map<string, number>();
  let escapedNonAscii = false;
  let rawNonAscii = false;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const char = raw.charAt(i);
    if (char >= '\u0080') {
      rawNonAscii = true;
    } else if (inString) {
      if (char === '"') {
        inString = false;
      } else if (char === '\\') {
        // Step over the escape so `\\u00e9` (a backslash, then text) does not count.
        if (raw.charAt(i + 1) === 'u') {
          const hex = raw.slice(i + 2, i + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex) && parseInt(hex, 16) >= 0x80) escapedNonAscii = true;
          i += 5;
        } else {
          i++;
        }
      }
    } else if (char === '"') {
      inString = true;
    } else if (char === ':' || char === ',') {
      let start = i;
      while (start > 0 && isBlank(raw.charAt(start - 1))) start--;
      let end = i + 1;
      while (end < raw.length && isBlank(raw.charAt(end))) end++;
      const tally = char === ':' ? keySeparators : itemSeparators;
      const separator = raw.slice(start, end);
      tally.set(separator, (tally.get(separator) ?? 0) + 1);
      i = end - 1;
    }
  }
  const key = mostCommon(keySeparators);
  const item = mostCommon(itemSeparators);
  return {
    keySeparator: key ?? (item !== undefined && isBlank(item.slice(-1)) ? ': ' : ':'),
    itemSeparator: item ?? (key !== undefined && isBlank(key.slice(-1)) ? ', ' : ','),
    asciiOnly: escapedNonAscii && !rawNonAscii,
  };
}

/**
 * JSON text for `value` in `style`. Follows JSON.stringify (toJSON, members
 * that are undefined or functions left out, non-finite numbers as null,
 * circular structures throw, a BigInt written as its digits as
 * src-shared/exact-json.ts has it) except that -0 is written `-0`, so
 * the text parses back to exactly `value`, and that in an ascii-only style
 * every code unit from U+0080 up is written `\uXXXX` in lowercase hex, as
 * Python does. Throws a TypeError for a value with no JSON text (undefined).
 */
export function stringifyInStyle(value: unknown, style: JsonStyle): string {
  return serialise(jsonView(value, ''), style);
}

/**
 * `raw` (one JSON value, usually an object) rewritten so that it parses to
 * `next`, replacing only the spans of values that changed. A subtree equal to
 * the source's keeps its source bytes; objects recurse member by member, with
 * removed members dropped and added ones appended; arrays of the same length
 * recurse item by item; anything else is rewritten in the line's style. Key
 * order comes from the source, not from `next`: a JS object cannot hold
 * `{"b":1,"1":2}` in that order, so its key order says nothing. A line that is
 * not strict JSON, or has duplicate keys (which source span would a key map
 * to?), is rewritten whole in its detected style.
 */
export function spliceJsonLine(raw: string, next: unknown): string {
  const root = parseSource(raw);
  if (root === undefined) return stringifyInStyle(next, detectJsonStyle(raw));

  let detected: JsonStyle | undefined;
  const lineStyle = (): JsonStyle => (detected ??= detectJsonStyle(raw));
  // The output in order, as source slices and new text, joined once at the end.
  const out: string[] = [];
  const copy = (start: number, end: number): void => {
    if (end > start) out.push(raw.slice(start, end));
  };
  const fresh = (value: unknown): void => {
    out.push(serialise(value, lineStyle()));
  };

  // `value` has been through jsonView, as JSON.stringify would see it.
  const emit = (node: Node, value: unknown): void => {
    if (node.type === 'object' && isObject(value)) {
      emitObject(node, value);
    } else if (node.type === 'array' && Array.isArray(value)) {
      const items = node.children ?? [];
      if (items.length !== value.length) {
        fresh(value);
        return;
      }
      let cursor = node.offset;
      items.forEach((item, i) => {
        copy(cursor, item.offset);
        emit(item, itemView(value, i));
        cursor = end(item);
      });
      copy(cursor, end(node));
    } else if (sameScalar(node, value, raw)) {
      copy(node.offset, end(node));
    } else {
      fresh(value);
    }
  };

  const emitObject = (node: Node, value: Record<string, unknown>): void => {
    const wanted = members(value);
    const properties = node.children ?? [];
    if (wanted.size === 0) {
      if (properties.length === 0) copy(node.offset, end(node));
      else out.push('{}');
      return;
    }
    // Whitespace just inside the braces is the source's; an empty source has none.
    const [first] = properties;
    const last = properties.at(-1);
    if (first === undefined) out.push('{');
    else copy(node.offset, first.offset);
    let written = 0;
    let previousEnd: number | undefined;
    const sourceKeys = new Set<string>();
    for (const property of properties) {
      const { key, value: valueNode } = member(property);
      sourceKeys.add(key);
      if (!wanted.has(key)) {
        previousEnd = undefined;
        continue;
      }
      // Members that were neighbours in the source keep the separator between them.
      if (previousEnd !== undefined) copy(previousEnd, property.offset);
      else if (written > 0) out.push(lineStyle().itemSeparator);
      copy(property.offset, valueNode.offset);
      emit(valueNode, wanted.get(key));
      previousEnd = end(property);
      written++;
    }
    for (const [key, item] of wanted) {
      if (sourceKeys.has(key)) continue;
      const style = lineStyle();
      out.push(written > 0 ? style.itemSeparator : '', quote(key, style), style.keySeparator);
      fresh(item);
      written++;
    }
    if (last === undefined) out.push('}');
    else copy(end(last), end(node));
  };

  copy(0, root.offset);
  emit(root, jsonView(next, ''));
  copy(end(root), raw.length);
  return out.join('');
}

/** The tree of a strict-JSON line without duplicate keys, else undefined. */
function parseSource(raw: string): Node | undefined {
  // jsonc-parser is lenient (comments, trailing commas, odd whitespace), so the
  // built-in parser decides what is JSON. Only as a yes or no: its keys are not
  // trusted, since V8 can misread an escaped key (nodejs/node#63785).
  try {
    JSON.parse(raw);
  } catch {
    return undefined;
  }
  const errors: ParseError[] = [];
  const root = parseTree(raw, errors, { disallowComments: true, allowTrailingComma: false });
  if (root === undefined || errors.length > 0 || hasDuplicateKeys(root)) return undefined;
  return root;
}

function hasDuplicateKeys(node: Node): boolean {
  const children = node.children ?? [];
  if (node.type === 'object') {
    const keys = new Set<string>();
    for (const property of children) {
      const { key, value } = member(property);
      if (keys.has(key) || hasDuplicateKeys(value)) return true;
      keys.add(key);
    }
    return false;
  }
  return children.some(hasDuplicateKeys);
}

/** A property node's key (unescaped) and value node. */
function member(property: Node): { key: string; value: Node } {
  const [keyNode, value] = property.children ?? [];
  const key: unknown = keyNode?.value;
  if (typeof key !== 'string' || value === undefined) throw new Error('malformed JSON tree');
  return { key, value };
}

/**
 * Whether a scalar source node parses to `value`. jsonc-parser unescapes
 * strings and reads numbers with Number(), which rounds as JSON.parse does,
 * so `1.0` equals 1 and a too-big integer equals its rounded double. Object.is
 * keeps -0 and 0 apart, since both are JSON text and parse differently. A
 * BigInt (an integer past 2^53, read exactly) is compared with the node's
 * source text (`raw`: the line).
 */
function sameScalar(node: Node, value: unknown, raw: string): boolean {
  const parsed: unknown = node.value;
  switch (node.type) {
    case 'string':
    case 'boolean':
      return parsed === value;
    case 'number':
      if (typeof value === 'bigint') {
        const source = raw.slice(node.offset, node.offset + node.length);
        return /^-?\d+$/.test(source) && BigInt(source) === value;
      }
      return typeof value === 'number' && Object.is(parsed, value);
    case 'null':
      return value === null;
    default:
      return false;
  }
}

/** The JSON text of a value already through jsonView. */
function serialise(value: unknown, style: JsonStyle, ancestors = new Set<object>()): string {
  const text = write(value, style, ancestors);
  if (text === undefined) throw new TypeError(`${typeof value} has no JSON text`);
  return text;
}

function write(value: unknown, style: JsonStyle, ancestors: Set<object>): string | undefined {
  if (omitted(value)) return undefined;
  if (typeof value === 'string') return quote(value, style);
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (ancestors.has(value)) throw new TypeError('Converting circular structure to JSON');
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    // An index loop, not map(): map skips holes, which JSON writes as null.
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) {
      items.push(serialise(itemView(value, i), style, ancestors));
    }
    text = `[${items.join(style.itemSeparator)}]`;
  } else {
    const parts: string[] = [];
    for (const [key, item] of members(value as Record<string, unknown>)) {
      parts.push(quote(key, style) + style.keySeparator + serialise(item, style, ancestors));
    }
    text = `{${parts.join(style.itemSeparator)}}`;
  }
  ancestors.delete(value);
  return text;
}

/** A JSON string literal; JSON.stringify already escapes lone surrogates. */
function quote(text: string, style: JsonStyle): string {
  const json = JSON.stringify(text);
  if (!style.asciiOnly) return json;
  return json.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** What JSON.stringify writes for a value: its toJSON result, primitives unboxed. */
function jsonView(value: unknown, key: string): unknown {
  let view = value;
  // A BigInt is written by `write` itself: its toJSON (exact-json.ts) gives raw JSON, an object here.
  if (typeof view === 'object' && view !== null) {
    const toJSON = (Object(view) as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') view = toJSON.call(view, key) as unknown;
  }
  if (view instanceof Number || view instanceof String || view instanceof Boolean) {
    return view.valueOf();
  }
  return view;
}

/** An object's members as JSON.stringify writes them: own enumerable keys, in order. */
function members(value: Record<string, unknown>): Map<string, unknown> {
  const result = new Map<string, unknown>();
  // Object.keys, not `in` or for-in: a "__proto__" key is an own data property.
  for (const key of Object.keys(value)) {
    const view = jsonView(value[key], key);
    if (!omitted(view)) result.set(key, view);
  }
  return result;
}

/** An array item as JSON.stringify writes it: values with no JSON text become null. */
function itemView(array: readonly unknown[], index: number): unknown {
  const view = jsonView(array[index], String(index));
  return omitted(view) ? null : view;
}

function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function isBlank(char: string): boolean {
  return char === ' ' || char === '\t';
}

function mostCommon(tally: Map<string, number>): string | undefined {
  let best: string | undefined;
  let bestCount = 0;
  for (const [text, count] of tally) {
    if (count > bestCount) {
      best = text;
      bestCount = count;
    }
  }
  return best;
}

function end(node: Node): number {
  return node.offset + node.length;
}
