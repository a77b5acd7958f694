import type { SchemaElement, SchemaTree } from 'hyparquet';
import { isListLike, isMapLike } from 'hyparquet/src/schema.js';
import { isObject, kindOf } from '../values.ts';
import { bigintsAsRawJson } from '../../../src-shared/exact-json.ts';

/**
 * Values written back into a Parquet schema. The rows are JSON values as
 * `readParquet` makes them (`jsonValue`); each column's values are turned back
 * into what hyparquet-writer takes for its schema node, mirroring the order in
 * which hyparquet's reader decides how to read it (its `convert`), so a value
 * read and written back is the same value of the same type. A changed value is
 * coerced to the column's type when that loses nothing (7 or "7" into INT64,
 * 3 into a STRING column) and is refused otherwise (a `Problem`).
 */

/** Turns a JSON value into what hyparquet-writer takes for one schema node; throws a Problem. */
export type Convert = (value: unknown) => unknown;

/** A value that does not fit its column; `at` is where inside the column (`.field`, `[2]`). */
export class Problem extends Error {
  at = '';
}

/** Prefixes a Problem's place with one step, as it unwinds through lists and structs. */
function within(error: unknown, step: string): unknown {
  if (error instanceof Problem) error.at = step + error.at;
  return error;
}

function expected(what: string, value: unknown): Problem {
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : kindOf(value);
  return new Problem(`expected ${what}, got ${shown}`);
}

/**
 * The converter for a schema node, or undefined when hyparquet-writer cannot
 * write the node as it is (the column then falls back, see `parquet.ts`).
 * Repeated nodes are only written as the middle of a LIST or MAP.
 */
export function compile(node: SchemaTree, top: boolean): Convert | undefined {
  const { element } = node;
  if (element.repetition_type === 'REPEATED') return undefined;
  if (element.logical_type?.type === 'VARIANT') return top ? variant(element) : undefined;
  let convert: Convert | undefined;
  if (isListLike(node)) convert = compileList(node);
  else if (isMapLike(node)) convert = compileMap(node);
  else if (node.children.length > 0) convert = compileStruct(node);
  else convert = leafConverter(element);
  return convert && nullable(element, convert);
}

function nullable(element: SchemaElement, convert: Convert): Convert {
  if (element.repetition_type !== 'REQUIRED') {
    return (value) => (value === null || value === undefined ? null : convert(value));
  }
  return (value) => {
    if (value === null || value === undefined) {
      throw new Problem('null, but the source file has this column as REQUIRED');
    }
    return convert(value);
  };
}

/**
 * A variant holds any JSON value, null included: hyparquet-writer writes
 * null as a variant null and only a missing value (undefined) as no value,
 * which is also how hyparquet reads the two back.
 */
function variant(element: SchemaElement): Convert {
  if (element.repetition_type !== 'REQUIRED') return (value) => value;
  return (value) => {
    if (value === undefined)
      throw new Problem('missing, but the source file has this column as REQUIRED');
    return value;
  };
}

/** A 3-level list (`LIST` > repeated group > element): an array, element by element. */
function compileList(node: SchemaTree): Convert | undefined {
  const repeated = node.children[0];
  const element = repeated?.children.length === 1 ? repeated.children[0] : undefined;
  const item = element && compile(element, false);
  if (!item) return undefined;
  return (value) => {
    if (!Array.isArray(value)) throw expected('a list', value);
    const out: unknown[] = new Array(value.length);
    let i = 0;
    try {
      for (; i < value.length; i++) out[i] = item(value[i]);
    } catch (error) {
      throw within(error, `[${i}]`);
    }
    return out;
  };
}

/** A map, read as an object (keys as text): {key, value} entries with both converted. */
function compileMap(node: SchemaTree): Convert | undefined {
  const entry = node.children[0];
  const keyNode = entry?.children.find((child) => child.element.name === 'key');
  const valueNode = entry?.children.find((child) => child.element.name === 'value');
  const key = keyNode && compile(keyNode, false);
  const value = valueNode && compile(valueNode, false);
  if (!key || !value) return undefined;
  return (map) => {
    if (!isObject(map)) throw expected('a map (an object)', map);
    return Object.entries(map).map(([k, v]) => {
      try {
        return { key: key(k), value: value(v) };
      } catch (error) {
        throw within(error, `[${JSON.stringify(k)}]`);
      }
    });
  };
}

function compileStruct(node: SchemaTree): Convert | undefined {
  const fields: [string, Convert][] = [];
  for (const child of node.children) {
    const convert = compile(child, false);
    if (!convert) return undefined;
    fields.push([child.element.name, convert]);
  }
  const names = new Set(fields.map(([name]) => name));
  return (value) => {
    if (!isObject(value)) throw expected('an object', value);
    for (const [key, v] of Object.entries(value)) {
      if (!names.has(key) && v !== null && v !== undefined) {
        throw new Problem(`has a field "${key}" that the source file's struct does not`);
      }
    }
    const out: Record<string, unknown> = {};
    for (const [name, convert] of fields) {
      try {
        out[name] = convert(value[name]);
      } catch (error) {
        throw within(error, `.${name}`);
      }
    }
    return out;
  };
}

const TIME_UNIT = { MILLIS: 1n, MICROS: 1000n, NANOS: 1_000_000n } as const;
const DAY_MS = 86_400_000;
const UTF8 = new TextEncoder();

/**
 * A leaf's converter: the inverse of hyparquet's `convert` and then
 * `jsonValue`, checked in the order hyparquet checks annotations. What
 * hyparquet-writer converts itself (DECIMAL, JSON, UTF8, UUID, FLOAT16,
 * geometry) it gets as the reader gave it; the rest is given physical values.
 */
function leafConverter(element: SchemaElement): Convert | undefined {
  const { type, converted_type: converted, logical_type: logical } = element;
  if (type === 'INT96' || converted === 'BSON' || converted === 'INTERVAL') return undefined;
  if (converted === 'DECIMAL') return (value) => numberOf(value, 'a number (DECIMAL)');
  if (converted === 'DATE') return (value) => Math.floor(millisOf(value) / DAY_MS);
  if (converted === 'TIMESTAMP_MILLIS') return timestamp(TIME_UNIT.MILLIS);
  if (converted === 'TIMESTAMP_MICROS') return timestamp(TIME_UNIT.MICROS);
  if (converted === 'JSON') return bigintsAsRawJson;
  if (logical?.type === 'GEOMETRY' || logical?.type === 'GEOGRAPHY') return (value) => value;
  if (logical?.type === 'UUID') return uuid;
  if (converted === 'UTF8') return textOf;
  // hyparquet reads any other BYTE_ARRAY (ENUM, unannotated) as UTF-8 text;
  // hyparquet-writer only encodes text itself for UTF8, so these get bytes.
  if (logical?.type === 'STRING' || type === 'BYTE_ARRAY') {
    return (value) => UTF8.encode(textOf(value));
  }
  if (logical?.type === 'FLOAT16') return (value) => numberOf(value, 'a number (FLOAT16)');
  if (logical?.type === 'TIMESTAMP') return timestamp(TIME_UNIT[logical.unit]);
  switch (type) {
    case 'BOOLEAN':
      return boolean;
    case 'INT32': {
      const range = integerRange(element);
      return (value) => Number(integer(value, range));
    }
    case 'INT64': {
      const range = integerRange(element);
      return (value) => integer(value, range);
    }
    case 'FLOAT':
    case 'DOUBLE':
      return (value) => numberOf(value, `a number (${type})`);
    case 'FIXED_LEN_BYTE_ARRAY':
      return fixedBytes(element.type_length ?? 0);
    default:
      return undefined;
  }
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}

function boolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw expected('a boolean', value);
}

function numberOf(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  throw expected(what, value);
}

interface IntegerRange {
  min: bigint;
  max: bigint;
  what: string;
}

/** The range an integer column's annotation allows (INT_8, UINT_16, INTEGER(64, false), ...). */
function integerRange(element: SchemaElement): IntegerRange {
  const logical = element.logical_type;
  const annotated = /^(U?)INT_(8|16|32|64)$/.exec(element.converted_type ?? '');
  let bits = element.type === 'INT64' ? 64 : 32;
  let signed = true;
  if (logical?.type === 'INTEGER') {
    bits = logical.bitWidth;
    signed = logical.isSigned;
  } else if (annotated) {
    bits = Number(annotated[2]);
    signed = annotated[1] === '';
  }
  const span = 2n ** BigInt(bits);
  return {
    min: signed ? -span / 2n : 0n,
    max: signed ? span / 2n - 1n : span - 1n,
    what: `an integer (${signed ? '' : 'unsigned '}${bits}-bit)`,
  };
}

/** An integer from a number or decimal text (`jsonValue` writes large INT64 as text). */
function integer(value: unknown, range: IntegerRange): bigint {
  let n: bigint | undefined;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) n = BigInt(value.trim());
  if (n === undefined || n < range.min || n > range.max) throw expected(range.what, value);
  return n;
}

function millisOf(value: unknown): number {
  const millis =
    value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(millis)) throw expected('a date or time as ISO text', value);
  return millis;
}

function timestamp(perMilli: bigint): Convert {
  return (value) => BigInt(millisOf(value)) * perMilli;
}

function uuid(value: unknown): string {
  if (typeof value === 'string' && /^[0-9a-f]{8}-?([0-9a-f]{4}-?){3}[0-9a-f]{12}$/i.test(value)) {
    return value;
  }
  throw expected('a UUID', value);
}

/** Raw fixed-length bytes, which `jsonValue` writes as base64. */
function fixedBytes(length: number): Convert {
  return (value) => {
    const bytes =
      value instanceof Uint8Array
        ? value
        : typeof value === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(value)
          ? new Uint8Array(Buffer.from(value, 'base64'))
          : undefined;
    if (bytes?.length !== length) throw expected(`${length} bytes as base64`, value);
    return bytes;
  };
}
