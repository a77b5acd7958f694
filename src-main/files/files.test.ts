import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileWriter, parquetWriteRows } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FILE_FORMATS,
  formatFromPath,
  readRows,
  writeRows,
  type FileFormat,
  type RowResult,
} from './index.ts';
import { failure } from './testing/files-test-kit.ts';

type Row = Record<string, unknown>;

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-files-test-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dataset(name: string): string {
  return fileURLToPath(new URL(`../../resources/datasets/${name}`, import.meta.url));
}

function temp(name: string, content?: string | Buffer): string {
  const path = join(dir, name);
  if (content !== undefined) writeFileSync(path, content);
  return path;
}

async function collect(
  path: string,
  options?: Parameters<typeof readRows>[1],
): Promise<RowResult[]> {
  const results: RowResult[] = [];
  for await (const result of readRows(path, options)) results.push(result);
  return results;
}

async function values(path: string, options?: Parameters<typeof readRows>[1]): Promise<Row[]> {
  return (await collect(path, options)).map((result) => {
    if ('error' in result) throw new Error(`row ${result.row}: ${result.error}`);
    return result.value;
  });
}

async function* lazily(rows: Row[]): AsyncGenerator<Row> {
  for (const row of rows) {
    await Promise.resolve();
    yield row;
  }
}

/** Linux only: how far the open descriptor on `path` has read, from /proc/self/fdinfo. */
function readPosition(path: string): number | undefined {
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue;
    }
    if (target !== path) continue;
    const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    return Number(/pos:\s+(\d+)/.exec(info)?.[1]);
  }
  return undefined;
}

describe('formatFromPath', () => {
  it('knows the extensions, in any case', () => {
    expect(formatFromPath('/a/b.jsonl')).toBe('jsonl');
    expect(formatFromPath('x.NDJSON')).toBe('jsonl');
    expect(formatFromPath('x.Json')).toBe('json');
    expect(formatFromPath('x.csv')).toBe('csv');
    expect(formatFromPath('C:\\data\\x.PARQUET')).toBe('parquet');
    expect(formatFromPath('x.txt')).toBeUndefined();
    expect(formatFromPath('jsonl')).toBeUndefined();
    expect(formatFromPath('x.constructor')).toBeUndefined();
  });
});

describe.each([
  ['gsm8k_test_first300.jsonl', 300],
  ['commonsenseqa_validation_first200.jsonl', 200],
  ['hellaswag_val_sample200.jsonl', 200],
])('round trips of %s', (name, count) => {
  it.each(FILE_FORMATS)('through %s', async (format: FileFormat) => {
    const original = await values(dataset(name));
    expect(original).toHaveLength(count);
    const path = temp(`${name}.${format}`);
    // arrays and lazy sources both work; lazy ones are spooled for CSV and Parquet
    const source = format === 'csv' || format === 'json' ? lazily(original) : original;
    const written = await writeRows(path, format, source);
    expect(written).toEqual({ rows: count, bytes: statSync(path).size });
    const back = await values(path);
    if ((format === 'csv' || format === 'parquet') && name.startsWith('hellaswag')) {
      // HellaSwag rows come in two key orders; CSV and Parquet files have one column order
      // (CSV reads `ind` and `label` back as numbers: see csv-cells.ts)
      expect(back).toEqual(original);
    } else {
      expect(JSON.stringify(back)).toBe(JSON.stringify(original));
    }
    expect(readdirSync(dir).filter((file) => file.endsWith('.partial'))).toEqual([]);
  });
});

describe('JSON Lines', () => {
  it('reports a broken line and a non-object line by number and reads the rest', async () => {
    const path = temp(
      'broken.jsonl',
      ['{"a": 1}', '{"a": 2}', '{"a": 3,', '', '[1, 2]', '   ', '{"a": 7}\r', '{"a": 8}'].join(
        '\n',
      ),
    );
    const results = await collect(path);
    expect(results.map((r) => r.row)).toEqual([1, 2, 3, 5, 7, 8]);
    expect(results[2]).toMatchObject({
      row: 3,
      error: expect.stringMatching(/^invalid JSON: /) as unknown,
    });
    expect(results[3]).toEqual({
      row: 5,
      error: 'expected a JSON object, got an array',
      raw: '[1, 2]',
    });
    expect(results.filter((r) => 'value' in r).map((r) => ('value' in r ? r.value.a : 0))).toEqual([
      1, 2, 7, 8,
    ]);
  });

  it('reads a BOM, a last line without newline, and an empty file', async () => {
    expect(await values(temp('bom.jsonl', '\ufeff{"a":1}\n{"b":2}'))).toEqual([{ a: 1 }, { b: 2 }]);
    expect(await collect(temp('empty.jsonl', ''))).toEqual([]);
  });

  it('keeps leading failures when a good line follows', async () => {
    const results = await collect(temp('lead.jsonl', 'nope\n{"a":1}\n'));
    expect(results).toEqual([
      { row: 1, error: expect.stringMatching(/^invalid JSON/) as unknown, raw: 'nope' },
      { row: 2, value: { a: 1 }, raw: '{"a":1}' },
    ]);
  });

  it('refuses a file that is not JSON Lines at all', async () => {
    const pretty = temp('pretty.jsonl', JSON.stringify([{ a: 1 }, { a: 2 }], null, 2));
    const error = await failure(collect(pretty));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(
      /^cannot read ".*pretty\.jsonl": not JSON Lines \(line 1: invalid JSON/,
    );
    const binary = temp('binary.jsonl', Buffer.from([0x50, 0x41, 0x52, 0x31, 0, 0, 1, 2]));
    expect((await failure(collect(binary))).message).toMatch(
      /binary\.jsonl": not JSON Lines \(it holds binary data/,
    );
  });

  it('streams: the first row comes before the file is read, and abort stops reading', async () => {
    const lines = 200_000;
    const path = temp('big.jsonl');
    const line = (i: number): string =>
      JSON.stringify({
        id: i,
        text: `row ${i} with some padding to make the file a few megabytes`,
      });
    writeFileSync(path, Array.from({ length: lines }, (_, i) => line(i)).join('\n') + '\n');
    const size = statSync(path).size;

    const controller = new AbortController();
    const generator = readRows(path, { signal: controller.signal });
    const first = await generator.next();
    expect(first.value).toEqual({ row: 1, value: JSON.parse(line(0)) as unknown, raw: line(0) });
    if (process.platform === 'linux') {
      const position = readPosition(path);
      expect(position).toBeGreaterThan(0);
      expect(position).toBeLessThan(size / 10);
    }
    let read = 1;
    const error = await failure(
      (async () => {
        for await (const result of generator) {
          read++;
          expect(result.row).toBe(read);
          if (read === 1000) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('cancelled');
    expect(read).toBe(1000);

    // and the whole file reads, row by row
    let count = 0;
    let last = 0;
    for await (const result of readRows(path)) {
      count++;
      last = result.row;
    }
    expect(count).toBe(lines);
    expect(last).toBe(lines);
  });

  it('throws cancelled at once for a signal that has already fired', async () => {
    const error = await failure(
      collect(dataset('gsm8k_test_first300.jsonl'), { signal: AbortSignal.abort() }),
    );
    expect(error.code).toBe('cancelled');
    expect(error.message).toMatch(/^reading ".*gsm8k_test_first300\.jsonl" was cancelled$/);
  });
});

describe('JSON', () => {
  it('streams an array, reporting elements that are not objects', async () => {
    const path = temp('array.json', '\ufeff[\n {"a": 1},\n 2,\n {"b": {"c": [1, null]}}\n]\n');
    expect(await collect(path)).toEqual([
      { row: 1, value: { a: 1 } },
      { row: 2, error: 'expected a JSON object, got a number' },
      { row: 3, value: { b: { c: [1, null] } } },
    ]);
  });

  it('fails where a broken array stops, cut short or broken in the middle', async () => {
    const cut = temp('cut.json', '[{"a": 1}, {"a": 2}, {"a": ');
    await expect(collect(cut)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(
        /^cannot read ".*cut\.json": its JSON breaks off after row 2 \(.+\); nothing after that can be read/,
      ) as unknown,
    });
    // A comma missing after the third of 100 elements: 97 rows would have been lost unsaid.
    const rows = Array.from({ length: 100 }, (_, i) => JSON.stringify({ a: i }));
    const broken = temp(
      'midbreak.json',
      `[${rows.slice(0, 3).join(',')} ${rows.slice(3).join(',')}]`,
    );
    await expect(collect(broken)).rejects.toMatchObject({
      message: expect.stringContaining('breaks off after row 3') as unknown,
    });
  });

  it('reads JSON Lines saved as .json (as Hugging Face to_json writes them)', async () => {
    const path = temp('lines.json', '{"a": 1}\n{"a": 2}\n');
    expect(await values(path)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('refuses JSON that is no array of rows', async () => {
    expect((await failure(collect(temp('scalar.json', '"hello"')))).message).toMatch(
      /scalar\.json": not a JSON array$/,
    );
    expect((await failure(collect(temp('empty.json', '  \n')))).message).toMatch(
      /the file is empty/,
    );
    expect((await failure(collect(temp('bad.json', '[nope]')))).message).toMatch(
      /bad\.json": not a JSON array \(/,
    );
  });
});

describe('CSV', () => {
  it('reads a header and rows, reporting a row with the wrong number of fields', async () => {
    const path = temp(
      'short.csv',
      'id,question,choices\r\n1,"Is it, really?","[""a"",""b""]"\r\n2,too short\r\n\r\n3,"multi\nline",{"x":1}\r\n4,[not json],{}\r\n',
    );
    expect(await collect(path)).toEqual([
      {
        row: 1,
        value: { id: 1, question: 'Is it, really?', choices: ['a', 'b'] },
        // cells read as numbers or JSON: the row keeps its text as well (see mapRow)
        text: { id: '1', question: 'Is it, really?', choices: '["a","b"]' },
        // the record's source text, without its CRLF
        raw: '1,"Is it, really?","[""a"",""b""]"',
      },
      { row: 2, error: 'expected 3 fields (as the header has), got 2', raw: '2,too short' },
      {
        row: 3,
        value: { id: 3, question: 'multi\nline', choices: { x: 1 } },
        text: { id: '3', question: 'multi\nline', choices: '{"x":1}' },
        raw: '3,"multi\nline",{"x":1}',
      },
      {
        row: 4,
        value: { id: 4, question: '[not json]', choices: {} },
        text: { id: '4', question: '[not json]', choices: '{}' },
        raw: '4,[not json],{}',
      },
    ]);
  });

  it('writes the union of keys in first-seen order, nested values as JSON', async () => {
    const path = temp('union.csv');
    await writeRows(path, 'csv', [
      { a: 1, b: 'x' },
      { c: [1, 2], a: null },
      { b: 'line\nbreak', d: true },
    ]);
    expect(readFileSync(path, 'utf8')).toBe('a,b,c,d\n1,x,,\n,,"[1,2]",\n,"line\nbreak",,true\n');
  });

  it('quotes a one-column file so empty values survive', async () => {
    const path = temp('single.csv');
    await writeRows(path, 'csv', [{ text: '' }, { text: 'a' }]);
    expect(await values(path)).toEqual([{ text: '' }, { text: 'a' }]);
  });

  it('refuses a header that names a column twice', async () => {
    const error = await failure(collect(temp('dup.csv', 'a,a\n1,2\n')));
    expect(error.message).toMatch(/the CSV header names the column "a" twice/);
  });
});

describe('Parquet', () => {
  it('reads row group by row group, numbering rows across groups', async () => {
    const path = temp('groups.parquet');
    const rows = Array.from({ length: 2500 }, (_, i) => ({ i, s: `row ${i}` }));
    await writeRows(path, 'parquet', lazily(rows));
    const results = await collect(path);
    expect(results).toHaveLength(2500);
    expect(results[1234]).toEqual({ row: 1235, value: { i: 1234, s: 'row 1234' } });
  });

  it('keeps types: mixed columns as JSON, large integers, booleans, nulls for missing keys', async () => {
    const path = temp('types.parquet');
    const rows = [
      { mixed: 'a', big: 2 ** 40, flag: true, nested: { x: [1, 2] } },
      { mixed: 3, big: 1.5, flag: false },
    ];
    await writeRows(path, 'parquet', rows);
    expect(await values(path)).toEqual([
      { mixed: 'a', big: 2 ** 40, flag: true, nested: { x: [1, 2] } },
      { mixed: 3, big: 1.5, flag: false, nested: null },
    ]);
  });

  it('turns INT64 and timestamps from other writers into JSON values', async () => {
    const path = temp('int64.parquet');
    await parquetWriteRows({
      writer: fileWriter(path),
      columns: [
        { name: 'n', type: 'INT64' },
        { name: 't', type: 'TIMESTAMP' },
      ],
      rows: [
        { n: 12n, t: new Date(Date.UTC(2024, 0, 2)) },
        { n: 2n ** 60n, t: new Date(0) },
      ],
    });
    expect(await values(path)).toEqual([
      { n: 12, t: '2024-01-02T00:00:00.000Z' },
      // Past 2^53: exact, as a JSON file's integers are read (written back as its digits).
      { n: 1152921504606846976n, t: '1970-01-01T00:00:00.000Z' },
    ]);
  });

  it('refuses a file that is not Parquet', async () => {
    const path = temp('fake.parquet', '{"a": 1}\n');
    expect((await failure(collect(path))).message).toMatch(/fake\.parquet": not a Parquet file$/);
    expect(
      (await failure(collect(dataset('gsm8k_test_first300.jsonl'), { format: 'parquet' }))).message,
    ).toMatch(/not a Parquet file/);
  });

  it('refuses to write rows without any column', async () => {
    expect((await failure(writeRows(temp('none.parquet'), 'parquet', []))).message).toMatch(
      /a Parquet file needs at least one column/,
    );
  });
});

describe('files that cannot be read at all', () => {
  it('name the file', async () => {
    const missing = join(dir, 'missing.jsonl');
    const error = await failure(collect(missing));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(`cannot read "${missing}": no such file`);
    expect((await failure(collect(dir, { format: 'csv' }))).message).toMatch(/: not a file$/);
    // Without an extension to read a format from: a folder is named as one, a missing file too.
    expect((await failure(collect(dir))).message).toMatch(/: not a file$/);
    expect((await failure(collect(join(dir, 'missing')))).message).toMatch(/: no such file$/);
    expect((await failure(collect(temp('x.txt', 'hello')))).message).toMatch(
      /x\.txt": unknown format; use \.jsonl, \.ndjson, \.json, \.csv, \.tsv or \.parquet$/,
    );
  });

  it('and writing to a folder that does not exist fails with the file named', async () => {
    const target = join(dir, 'no', 'such', 'out.jsonl');
    const error = await failure(writeRows(target, 'jsonl', [{ a: 1 }]));
    expect(error.message).toBe(`cannot write "${target}": no such file`);
  });
});
