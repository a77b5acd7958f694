import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  type FileMetaData,
  type SchemaElement,
} from 'hyparquet';
import { fileWriter, parquetWriteRows } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { readRows } from '../index.ts';
import { failure } from '../testing/files-test-kit.ts';
import { readParquetLayout, type ParquetLayout } from './parquet-layout.ts';
import { writeParquetLike } from './parquet.ts';

type Row = Record<string, unknown>;

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-parquet-like-test-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function temp(name: string): string {
  return join(dir, `${++files}-${name}.parquet`);
}

/** A source file as another tool would write it: an explicit schema, native values. */
async function source(schema: SchemaElement[], rows: Row[]): Promise<string> {
  const path = temp('source');
  const top = topLevel(schema);
  await parquetWriteRows({ writer: fileWriter(path), schema, columns: top, rows });
  return path;
}

/** The top-level columns of a schema (the root's children), skipping nested elements. */
function topLevel(schema: SchemaElement[]): { name: string }[] {
  const columns: { name: string }[] = [];
  let i = 1;
  const skip = (index: number): number => {
    let next = index + 1;
    for (let c = 0; c < (schema[index]?.num_children ?? 0); c++) next = skip(next);
    return next;
  };
  while (i < schema.length) {
    columns.push({ name: schema[i]?.name ?? '' });
    i = skip(i);
  }
  return columns;
}

/** Rows as the app reads them: JSON values. */
async function jsonRows(path: string): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const result of readRows(path)) {
    if ('error' in result) throw new Error(`row ${result.row}: ${result.error}`);
    rows.push(result.value);
  }
  return rows;
}

/** Rows as hyparquet reads them: bigints, Dates, bytes, typed. */
async function nativeRows(path: string): Promise<Row[]> {
  return parquetReadObjects({ file: await asyncBufferFromFile(path) });
}

async function metadata(path: string): Promise<FileMetaData> {
  return parquetMetadataAsync(await asyncBufferFromFile(path));
}

async function* lazily(rows: Row[]): AsyncGenerator<Row> {
  for (const row of rows) {
    await Promise.resolve();
    yield row;
  }
}

/** Writes rows like `layout` and returns the new file and how many rows were counted. */
async function writeLike(layout: ParquetLayout, rows: Row[]): Promise<string> {
  const path = temp('out');
  const counter = { rows: 0 };
  await writeParquetLike(path, layout, lazily(rows), counter);
  expect(counter.rows).toBe(rows.length);
  return path;
}

const OPTIONAL = 'OPTIONAL';
const REQUIRED = 'REQUIRED';
const STRING = {
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  logical_type: { type: 'STRING' },
} as const;

/** One column of every kind the app meets, flat and nested. */
const EVERY_TYPE: SchemaElement[] = [
  { name: 'schema', num_children: 24 },
  { name: 'id', type: 'INT64', repetition_type: REQUIRED },
  { name: 'small', type: 'INT32', repetition_type: OPTIONAL },
  {
    name: 'tiny',
    type: 'INT32',
    repetition_type: OPTIONAL,
    converted_type: 'INT_8',
    logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: true },
  },
  {
    name: 'unsigned',
    type: 'INT64',
    repetition_type: OPTIONAL,
    converted_type: 'UINT_64',
    logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: false },
  },
  { name: 'ratio', type: 'FLOAT', repetition_type: OPTIONAL },
  { name: 'score', type: 'DOUBLE', repetition_type: OPTIONAL },
  { name: 'ok', type: 'BOOLEAN', repetition_type: OPTIONAL },
  { name: 'text', ...STRING, repetition_type: OPTIONAL },
  {
    name: 'tags',
    repetition_type: OPTIONAL,
    converted_type: 'LIST',
    logical_type: { type: 'LIST' },
    num_children: 1,
  },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', ...STRING, repetition_type: OPTIONAL },
  { name: 'meta', repetition_type: OPTIONAL, num_children: 3 },
  { name: 'source', ...STRING, repetition_type: OPTIONAL },
  { name: 'count', type: 'INT64', repetition_type: REQUIRED },
  { name: 'weights', repetition_type: REQUIRED, converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', type: 'DOUBLE', repetition_type: REQUIRED },
  {
    name: 'at',
    type: 'INT64',
    repetition_type: OPTIONAL,
    converted_type: 'TIMESTAMP_MICROS',
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
  },
  {
    name: 'at_ns',
    type: 'INT64',
    repetition_type: OPTIONAL,
    logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' },
  },
  { name: 'at_ms', type: 'INT64', repetition_type: OPTIONAL, converted_type: 'TIMESTAMP_MILLIS' },
  {
    name: 'day',
    type: 'INT32',
    repetition_type: OPTIONAL,
    converted_type: 'DATE',
    logical_type: { type: 'DATE' },
  },
  {
    name: 'price',
    type: 'INT32',
    repetition_type: OPTIONAL,
    converted_type: 'DECIMAL',
    scale: 2,
    precision: 9,
    logical_type: { type: 'DECIMAL', scale: 2, precision: 9 },
  },
  { name: 'blob', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 4, repetition_type: OPTIONAL },
  { name: 'raw', type: 'BYTE_ARRAY', repetition_type: OPTIONAL },
  {
    name: 'labels',
    repetition_type: OPTIONAL,
    converted_type: 'MAP',
    logical_type: { type: 'MAP' },
    num_children: 1,
  },
  { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
  { name: 'key', ...STRING, repetition_type: REQUIRED },
  { name: 'value', type: 'INT32', repetition_type: OPTIONAL },
  { name: 'extra', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: OPTIONAL },
  {
    name: 'turns',
    repetition_type: OPTIONAL,
    converted_type: 'LIST',
    logical_type: { type: 'LIST' },
    num_children: 1,
  },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: OPTIONAL, num_children: 2 },
  { name: 'role', ...STRING, repetition_type: REQUIRED },
  { name: 'content', ...STRING, repetition_type: OPTIONAL },
  {
    name: 'uuid',
    type: 'FIXED_LEN_BYTE_ARRAY',
    type_length: 16,
    repetition_type: OPTIONAL,
    logical_type: { type: 'UUID' },
  },
  {
    name: 'half',
    type: 'FIXED_LEN_BYTE_ARRAY',
    type_length: 2,
    repetition_type: OPTIONAL,
    logical_type: { type: 'FLOAT16' },
  },
  {
    name: 'shape',
    type: 'BYTE_ARRAY',
    repetition_type: OPTIONAL,
    logical_type: { type: 'GEOMETRY' },
  },
  {
    name: 'kind',
    type: 'BYTE_ARRAY',
    repetition_type: REQUIRED,
    converted_type: 'ENUM',
    logical_type: { type: 'ENUM' },
  },
];

const ms = (iso: string): Date => new Date(iso);

const EVERY_TYPE_ROWS: Row[] = [
  {
    id: 1n,
    small: -5,
    tiny: -128,
    unsigned: 2n ** 64n - 1n,
    ratio: 0.1,
    score: 1 / 3,
    ok: true,
    text: 'héllo ✓',
    tags: ['a', null, 'b'],
    meta: { source: 'gsm8k', count: 2n ** 60n, weights: [0.5, 1.5] },
    at: ms('2024-02-29T12:34:56.789Z'),
    at_ns: ms('1969-07-20T20:17:40.001Z'),
    at_ms: ms('2000-01-01T00:00:00.000Z'),
    day: ms('2024-02-29T00:00:00.000Z'),
    price: 12.34,
    blob: new Uint8Array([0, 255, 1, 2]),
    raw: new TextEncoder().encode('plain bytes'),
    labels: [
      { key: 'x', value: 1 },
      { key: 'y', value: null },
    ],
    extra: { deep: [1, { a: null }] },
    turns: [
      { role: 'user', content: 'What is 2 + 2?' },
      { role: 'assistant', content: null },
    ],
    uuid: '123e4567-e89b-12d3-a456-426614174000',
    half: 1.5,
    shape: { type: 'Point', coordinates: [1, 2] },
    kind: 'train',
  },
  {
    id: 2n,
    small: null,
    tiny: 127,
    unsigned: 0n,
    ratio: -2.5,
    score: null,
    ok: false,
    text: '',
    tags: [],
    meta: null,
    at: null,
    at_ns: null,
    at_ms: null,
    day: null,
    price: null,
    blob: null,
    raw: null,
    labels: null,
    extra: null,
    turns: null,
    uuid: null,
    half: null,
    shape: null,
    kind: 'test',
  },
  {
    id: -(2n ** 63n),
    small: 2 ** 31 - 1,
    tiny: null,
    unsigned: null,
    ratio: null,
    score: -1e300,
    ok: null,
    text: null,
    tags: null,
    meta: { source: null, count: 0n, weights: [] },
    at: ms('1970-01-01T00:00:00.000Z'),
    at_ns: null,
    at_ms: null,
    day: ms('1900-01-01T00:00:00.000Z'),
    price: -0.05,
    blob: new Uint8Array(4),
    raw: new Uint8Array(),
    labels: [],
    extra: 'just text',
    turns: [],
    uuid: '00000000-0000-0000-0000-000000000000',
    half: -0.25,
    shape: {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    },
    kind: 'train',
  },
];

/** The file's schema as the layout gives it: types, repetition, logical types. */
async function schemaOf(path: string): Promise<SchemaElement[]> {
  return (await readParquetLayout(path)).schema;
}

describe('readParquetLayout', () => {
  it('describes the schema as JSON: root first, nested elements depth first', async () => {
    const path = await source(EVERY_TYPE, EVERY_TYPE_ROWS);
    const layout = await readParquetLayout(path);
    expect(JSON.parse(JSON.stringify(layout))).toEqual(layout);
    expect(layout.schema).toEqual(EVERY_TYPE);
  });

  it('names a file that is not Parquet', async () => {
    const error = await failure(readParquetLayout(join(dir, 'missing.parquet')));
    expect(error.message).toMatch(/missing\.parquet": no such file/);
  });
});

describe('writeParquetLike', () => {
  it('writes what it read back with the same schema and the same values', async () => {
    const path = await source(EVERY_TYPE, EVERY_TYPE_ROWS);
    // the layout as the app stores it: through JSON
    const layout = JSON.parse(JSON.stringify(await readParquetLayout(path))) as ParquetLayout;
    const out = await writeLike(layout, await jsonRows(path));
    expect(await schemaOf(out)).toEqual(await schemaOf(path));
    expect(await jsonRows(out)).toEqual(await jsonRows(path));
    // and natively: INT64 is still bigint, timestamps Dates, bytes bytes
    const native = await nativeRows(out);
    expect(native).toEqual(await nativeRows(path));
    expect(native[0]).toMatchObject({
      id: 1n,
      unsigned: 2n ** 64n - 1n,
      ratio: Math.fround(0.1),
      meta: { count: 2n ** 60n },
      at: ms('2024-02-29T12:34:56.789Z'),
      blob: new Uint8Array([0, 255, 1, 2]),
    });
  });

  it('writes changed values in their column type', async () => {
    const path = await source(EVERY_TYPE, EVERY_TYPE_ROWS);
    const rows = await jsonRows(path);
    const first = rows[0] ?? {};
    rows[0] = {
      ...first,
      id: 42,
      small: '12',
      unsigned: '18446744073709551614',
      ratio: 2.5,
      ok: 'false',
      text: 7,
      tags: ['z'],
      meta: { source: 'edited', count: '9007199254740993', weights: [2] },
      at: '2030-01-01T00:00:00.000Z',
      day: '2030-01-02',
      price: 1.5,
      blob: Buffer.from('abcd').toString('base64'),
      labels: { k: '3' },
      extra: ['now', 'a', 'list'],
      turns: [{ role: 'system', content: 'Be brief.' }],
      kind: 'dev',
    };
    const out = await writeLike(await readParquetLayout(path), rows);
    expect(await schemaOf(out)).toEqual(await schemaOf(path));
    const [changed, ...rest] = await nativeRows(out);
    expect(changed).toEqual({
      ...(await nativeRows(path))[0],
      id: 42n,
      small: 12,
      unsigned: 18446744073709551614n,
      ratio: 2.5,
      ok: false,
      text: '7',
      tags: ['z'],
      meta: { source: 'edited', count: 9007199254740993n, weights: [2] },
      at: ms('2030-01-01T00:00:00.000Z'),
      day: ms('2030-01-02T00:00:00.000Z'),
      price: 1.5,
      blob: new Uint8Array(Buffer.from('abcd')),
      labels: { k: 3 },
      extra: ['now', 'a', 'list'],
      turns: [{ role: 'system', content: 'Be brief.' }],
      kind: 'dev',
    });
    expect(rest).toEqual((await nativeRows(path)).slice(1));
  });

  it('appends the keys the schema lacks as inferred columns, and writes missing keys as null', async () => {
    const schema: SchemaElement[] = [
      { name: 'root', num_children: 2 },
      { name: 'n', type: 'INT64', repetition_type: OPTIONAL },
      { name: 's', ...STRING, repetition_type: OPTIONAL },
    ];
    const path = await source(schema, [
      { n: 1n, s: 'a' },
      { n: 2n, s: 'b' },
    ]);
    const out = await writeLike(await readParquetLayout(path), [
      { n: 1, s: 'a', svc_passed: true, svc_score: 1, svc_reason: 'fine' },
      { svc_passed: false, svc_score: 0.5 },
    ]);
    expect(await schemaOf(out)).toEqual([
      { name: 'root', num_children: 5 },
      schema[1],
      schema[2],
      { name: 'svc_passed', type: 'BOOLEAN', repetition_type: OPTIONAL },
      { name: 'svc_score', type: 'DOUBLE', repetition_type: OPTIONAL },
      { name: 'svc_reason', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: OPTIONAL },
    ]);
    expect(await nativeRows(out)).toEqual([
      { n: 1n, s: 'a', svc_passed: true, svc_score: 1, svc_reason: 'fine' },
      { n: null, s: null, svc_passed: false, svc_score: 0.5, svc_reason: null },
    ]);
  });

  it('streams many rows into several row groups', async () => {
    const schema: SchemaElement[] = [
      { name: 'root', num_children: 3 },
      { name: 'i', type: 'INT64', repetition_type: REQUIRED },
      { name: 'f', type: 'FLOAT', repetition_type: OPTIONAL },
      { name: 'l', repetition_type: OPTIONAL, converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'INT32', repetition_type: OPTIONAL },
    ];
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      i: BigInt(i) * 2n ** 40n,
      f: i % 7 === 0 ? null : i / 3,
      l: i % 5 === 0 ? null : Array.from({ length: i % 4 }, (__, j) => i + j),
    }));
    const path = await source(schema, rows);
    const out = await writeLike(await readParquetLayout(path), await jsonRows(path));
    expect((await metadata(out)).row_groups.map((group) => Number(group.num_rows))).toEqual([
      1000, 1500,
    ]);
    expect(await schemaOf(out)).toEqual(schema);
    expect(await nativeRows(out)).toEqual(await nativeRows(path));
  });

  it('keeps variant columns variants, shredded ones with their shredded schema', async () => {
    const path = temp('variant-source');
    await parquetWriteRows({
      writer: fileWriter(path),
      columns: [
        { name: 'v', type: 'VARIANT' },
        { name: 'shredded', type: 'VARIANT', shredding: { a: 'INT64', b: 'STRING' } },
        { name: 'n', type: 'INT32' },
      ],
      rows: [
        { v: { q: 1, r: [1, 'a', null] }, shredded: { a: 5n, b: 'x', c: [1] }, n: 1 },
        { v: 'text', shredded: 'not an object', n: 2 },
        { v: null, shredded: null, n: 3 },
        { v: undefined, shredded: undefined, n: 4 },
      ],
    });
    const out = await writeLike(await readParquetLayout(path), await jsonRows(path));
    expect(await schemaOf(out)).toEqual(await schemaOf(path));
    expect(await jsonRows(out)).toEqual(await jsonRows(path));
    // a variant null and a missing variant stay apart
    const unshredded = (rows: Row[]): unknown[] => rows.map(({ v, n }) => ({ v, n }));
    expect(unshredded(await nativeRows(out))).toEqual(unshredded(await nativeRows(path)));
  });

  it('falls back to inferred types for columns hyparquet-writer cannot write as they were', async () => {
    const layout: ParquetLayout = {
      schema: [
        { name: 'root', num_children: 3 },
        { name: 'legacy_time', type: 'INT96', repetition_type: OPTIONAL },
        { name: 'repeated', type: 'INT32', repetition_type: 'REPEATED' },
        { name: 'kept', type: 'INT64', repetition_type: OPTIONAL },
      ],
    };
    const out = await writeLike(layout, [
      { legacy_time: '2024-01-02T00:00:00.000Z', repeated: [1, 2], kept: 5 },
      { legacy_time: null, repeated: [], kept: null },
    ]);
    expect(await schemaOf(out)).toEqual([
      { name: 'root', num_children: 3 },
      {
        name: 'legacy_time',
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        repetition_type: OPTIONAL,
      },
      { name: 'repeated', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: OPTIONAL },
      { name: 'kept', type: 'INT64', repetition_type: OPTIONAL },
    ]);
    expect(await jsonRows(out)).toEqual([
      { legacy_time: '2024-01-02T00:00:00.000Z', repeated: [1, 2], kept: 5 },
      { legacy_time: null, repeated: [], kept: null },
    ]);
  });

  describe('refuses values that do not fit, naming the row and the column', () => {
    async function refusal(change: (row: Row) => Row, row = 2): Promise<string> {
      const path = await source(EVERY_TYPE, EVERY_TYPE_ROWS);
      const rows = await jsonRows(path);
      rows[row - 1] = change(rows[row - 1] ?? {});
      const error = await failure(writeLike(await readParquetLayout(path), rows));
      expect(error.code).toBe('invalid_request');
      return error.message;
    }

    it('a null in a REQUIRED column', async () => {
      expect(await refusal(({ id: _, ...row }) => row)).toBe(
        'cannot write row 2: column "id": null, but the source file has this column as REQUIRED',
      );
      expect(
        await refusal((row) => ({ ...row, meta: { source: 's', count: null, weights: [] } }), 3),
      ).toMatch(/^cannot write row 3: column "meta\.count": null, but .* REQUIRED$/);
      expect(
        await refusal((row) => ({ ...row, meta: { source: 's', count: 1, weights: [1, null] } })),
      ).toMatch(/^cannot write row 2: column "meta\.weights\[1\]": null, but .* REQUIRED$/);
    });

    it('a value the column type cannot hold', async () => {
      expect(await refusal((row) => ({ ...row, id: 'abc' }))).toBe(
        'cannot write row 2: column "id": expected an integer (64-bit), got "abc"',
      );
      expect(await refusal((row) => ({ ...row, tiny: 128 }))).toMatch(
        /column "tiny": expected an integer \(8-bit\), got 128$/,
      );
      expect(await refusal((row) => ({ ...row, small: 1.5 }))).toMatch(/column "small": expected/);
      expect(await refusal((row) => ({ ...row, at: 'yesterday' }))).toMatch(
        /column "at": expected a date or time as ISO text, got "yesterday"$/,
      );
      expect(await refusal((row) => ({ ...row, tags: 'a' }))).toMatch(
        /column "tags": expected a list, got "a"$/,
      );
      expect(
        await refusal((row) => ({ ...row, meta: { count: 1, weights: [], other: 1 } })),
      ).toMatch(/column "meta": has a field "other" that the source file's struct does not$/);
      expect(await refusal((row) => ({ ...row, blob: 'AAAA' }))).toMatch(
        /column "blob": expected 4 bytes as base64, got "AAAA"$/,
      );
    });
  });

  it('refuses a layout that is not a schema', async () => {
    const layout: ParquetLayout = { schema: [{ name: 'root', num_children: 2 }] };
    const error = await failure(writeLike(layout, [{ a: 1 }]));
    expect(error.message).toMatch(/^the source's Parquet layout is not a schema/);
  });
});
