import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { decodeCell, encodeCell } from './cells.ts';
import { csvRecordFor, encodeCsvRecordLike, readCsvLayout } from './csv-like.ts';
import { readCsv } from './csv.ts';
import type { RowResult } from './rows.ts';

/**
 * CSV read and written back byte for byte: each row's raw source text, the
 * cell rule (numbers, booleans, JSON), the layout, and records re-encoded
 * with their source's quoting.
 */

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'svc-csv-test-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function temp(content: string): string {
  const path = join(dir, `t${files++}.csv`);
  writeFileSync(path, content);
  return path;
}

async function collect(path: string, signal?: AbortSignal): Promise<RowResult[]> {
  const results: RowResult[] = [];
  for await (const result of readCsv(path, signal)) results.push(result);
  return results;
}

/** Each row's value and raw text; a row error fails the test. */
async function rows(path: string): Promise<{ value: Record<string, unknown>; raw?: string }[]> {
  return (await collect(path)).map((result) => {
    if ('error' in result) throw new Error(`row ${result.row}: ${result.error}`);
    return { value: result.value, raw: result.raw };
  });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

/** A cell as a writer with its own quoting habits writes it: quoted when asked, or when it must be. */
function writeCell(text: string, quoted: boolean): string {
  return quoted || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The cells of one record and whether each was quoted, as csv-parse reads them. */
function cellsOf(record: string): { text: string; quoted: boolean }[] {
  if (record === '') return [{ text: '', quoted: false }]; // a blank line: one empty cell
  const quoted: boolean[] = [];
  const [fields = []] = parse(record, {
    relax_quotes: true,
    record_delimiter: '\u0000',
    cast: (value, context) => {
      quoted.push(context.quoting);
      return value;
    },
  });
  return fields.map((text, i) => ({ text, quoted: quoted[i] ?? false }));
}

describe('readCsv: raw text', () => {
  it('gives each LF record without its newline, the last line without one too', async () => {
    const path = temp('a,b\n1,x\n"2","y, z"\n3,last');
    expect(await rows(path)).toEqual([
      { value: { a: 1, b: 'x' }, raw: '1,x' },
      { value: { a: 2, b: 'y, z' }, raw: '"2","y, z"' },
      { value: { a: 3, b: 'last' }, raw: '3,last' },
    ]);
  });

  it('drops the whole CRLF (csv-parse keeps its \\r in raw), also on the last line', async () => {
    const path = temp('a,b\r\n1,x\r\n2,y\r\n');
    expect((await rows(path)).map((row) => row.raw)).toEqual(['1,x', '2,y']);
    const unterminated = temp('a,b\r\n1,x\r\n2,y');
    expect((await rows(unterminated)).map((row) => row.raw)).toEqual(['1,x', '2,y']);
  });

  it('keeps line breaks and doubled quotes inside quoted cells', async () => {
    const record = '"multi\r\nline","say ""hi""\n"';
    for (const newline of ['\n', '\r\n']) {
      const path = temp(`a,b${newline}${record}${newline}x,y${newline}`);
      expect(await rows(path)).toEqual([
        { value: { a: 'multi\r\nline', b: 'say "hi"\n' }, raw: record },
        { value: { a: 'x', b: 'y' }, raw: 'x,y' },
      ]);
    }
  });

  it('strips a byte order mark from the header, and from nothing else', async () => {
    const path = temp('\ufeffid,text\n1,\ufeffkept\n');
    expect(await rows(path)).toEqual([
      { value: { id: 1, text: '\ufeffkept' }, raw: '1,\ufeffkept' },
    ]);
    expect(await readCsvLayout(path)).toEqual({
      header: ['id', 'text'],
      header_raw: 'id,text',
      newline: '\n',
    });
  });

  it("keeps a CRLF file's lone \\r at the very end as cell text, in the value and the raw text", async () => {
    const path = temp('a,b\r\n1,x\r');
    expect(await rows(path)).toEqual([{ value: { a: 1, b: 'x\r' }, raw: '1,x\r' }]);
  });

  it('skips empty lines, except in a one-column file, where they are empty values', async () => {
    expect(await rows(temp('\na,b\n\n1,2\n\n'))).toEqual([{ value: { a: 1, b: 2 }, raw: '1,2' }]);
    expect(await rows(temp('text\r\n\r\n""\r\nx\r\n'))).toEqual([
      { value: { text: '' }, raw: '' },
      { value: { text: '' }, raw: '""' },
      { value: { text: 'x' }, raw: 'x' },
    ]);
  });

  it('reports a quote never closed as the last row error, with the rows before it', async () => {
    const path = temp('a,b\n1,2\n3,"open\n4,5\n');
    expect(await collect(path)).toEqual([
      { row: 1, value: { a: 1, b: 2 }, raw: '1,2', text: { a: '1', b: '2' } },
      {
        row: 2,
        error: 'a quoted cell is never closed (the file ends inside it)',
        raw: '3,"open\n4,5\n',
      },
    ]);
    expect((await failure(collect(temp('"a,b\n1,2\n')))).message).toMatch(
      /the CSV header is broken: a quoted cell is never closed/,
    );
  });

  it('reads a quote inside an unquoted cell as text', async () => {
    expect(await rows(temp('a,b\n5" disk,x\n'))).toEqual([
      { value: { a: '5" disk', b: 'x' }, raw: '5" disk,x' },
    ]);
  });

  it('reads a column named __proto__ as a column', async () => {
    const [row] = await rows(temp('__proto__,b\n{"x":1},2\n'));
    expect(Object.getPrototypeOf(row?.value)).toBe(Object.prototype);
    expect(JSON.stringify(row?.value)).toBe('{"__proto__":{"x":1},"b":2}');
  });

  it('reads nothing from an empty file', async () => {
    expect(await collect(temp(''))).toEqual([]);
    expect(await readCsvLayout(temp(''))).toEqual({ header: [], header_raw: '', newline: '\n' });
  });

  it('stops with cancelled when the signal fires, before or while reading', async () => {
    const path = temp('a,b\n' + '1,2\n'.repeat(200_000));
    const before = new AbortController();
    before.abort();
    expect((await failure(collect(path, before.signal))).code).toBe('cancelled');
    const during = new AbortController();
    let read = 0;
    const error = await failure(
      (async () => {
        for await (const result of readCsv(path, during.signal)) {
          if ('value' in result && ++read === 10) during.abort();
        }
      })(),
    );
    expect(error.code).toBe('cancelled');
    expect(read).toBe(10);
  });

  it('refuses binary data and a header naming a column twice', async () => {
    expect((await failure(collect(temp('a,b\n\u0000\n')))).message).toMatch(/not CSV/);
    const duplicate = temp('a,b,a\n1,2,3\n');
    const message = /the CSV header names the column "a" twice/;
    expect((await failure(collect(duplicate))).message).toMatch(message);
    expect((await failure(readCsvLayout(duplicate))).message).toMatch(message);
  });
});

describe('readCsvLayout', () => {
  it("gives the header record as it was and the file's newline", async () => {
    expect(await readCsvLayout(temp('"id", "two words"\r\n1,2\r\n'))).toEqual({
      header: ['id', ' "two words"'],
      header_raw: '"id", "two words"',
      newline: '\r\n',
    });
    expect(await readCsvLayout(temp('\n\nid,"a\r\nb"\n1,2\n'))).toEqual({
      header: ['id', 'a\r\nb'],
      header_raw: 'id,"a\r\nb"',
      newline: '\n',
    });
    expect(await readCsvLayout(temp('only,a,header'))).toEqual({
      header: ['only', 'a', 'header'],
      header_raw: 'only,a,header',
      newline: '\n',
    });
  });
});

describe('cells', () => {
  it.each([
    ['5', 5],
    ['-2', -2],
    ['3.14', 3.14],
    ['0', 0],
    ['1e+21', 1e21],
    ['5e-7', 5e-7],
    ['true', true],
    ['false', false],
    ['[1, 2]', [1, 2]],
    [' {"a": 1} ', { a: 1 }],
    ['05', '05'],
    ['1.0', '1.0'],
    ['1e3', '1e3'],
    [' 5', ' 5'],
    ['5 ', '5 '],
    ['', ''],
    ['-0', '-0'],
    ['+5', '+5'],
    ['.5', '.5'],
    ['0x10', '0x10'],
    ['Infinity', 'Infinity'],
    ['-Infinity', '-Infinity'],
    ['NaN', 'NaN'],
    ['12345678901234567890', '12345678901234567890'],
    ['True', 'True'],
    ['true ', 'true '],
    ['[not json]', '[not json]'],
  ])('reads %j as %j', (text, value) => {
    expect(decodeCell(text)).toEqual(value);
  });

  it('reads back any finite number it wrote', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        expect(decodeCell(encodeCell(d)) === d).toBe(true);
      }),
    );
  });

  it('reads back booleans, arrays and objects it wrote', () => {
    fc.assert(
      fc.property(fc.oneof(fc.boolean(), fc.array(fc.jsonValue()), fc.object()), (value) => {
        expect(decodeCell(encodeCell(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  /** Text that no rule reads as a value: not a canonical number, a boolean or a JSON container. */
  function plainText(text: string): boolean {
    const number = Number(text);
    if (Number.isFinite(number) && String(number) === text) return false;
    if (text === 'true' || text === 'false') return false;
    const trimmed = text.trim();
    if (!/^\[.*\]$|^\{.*\}$/s.test(trimmed)) return true;
    try {
      JSON.parse(trimmed);
      return false;
    } catch {
      return true;
    }
  }

  it('keeps every other text as text', () => {
    const numberish = fc
      .tuple(
        fc.double({ noNaN: true }),
        fc.constantFrom('0', ' ', '+', '.0', 'e0', '_', '\n'),
        fc.boolean(),
      )
      .map(([d, extra, before]) => (before ? extra + String(d) : String(d) + extra));
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      numberish,
      fc.constantFrom('TRUE', 'False', ' true', '[1,', '{}x'),
    );
    fc.assert(
      fc.property(text.filter(plainText), (s) => {
        expect(decodeCell(s)).toBe(s);
      }),
    );
  });
});

describe('encodeCsvRecordLike', () => {
  it('copies unchanged cells verbatim and re-encodes changed ones', () => {
    const like = '"1",2, spaced ,"[1, 2]",true';
    expect(encodeCsvRecordLike([1, 2, ' spaced ', [1, 2], true], like)).toBe(like);
    expect(encodeCsvRecordLike(['1', '2', ' spaced ', '[1, 2]', 'true'], like)).toBe(like);
    expect(encodeCsvRecordLike([1, 3, ' spaced ', [1, 2], false], like)).toBe(
      '"1",3, spaced ,"[1, 2]",false',
    );
    // a changed array is written as JSON, and stays quoted
    expect(encodeCsvRecordLike([1, 2, ' spaced ', [1, 2, 3], true], like)).toBe(
      '"1",2, spaced ,"[1,2,3]",true',
    );
  });

  it('keeps a changed cell of a quoted-everything record quoted', () => {
    expect(encodeCsvRecordLike(['a', 'B', 7], '"a","b","c"')).toBe('"a","B","7"');
    expect(encodeCsvRecordLike([null, 'b'], '"","b"')).toBe('"","b"');
  });

  it('quotes a changed cell that needs it', () => {
    const like = 'a,b';
    expect(encodeCsvRecordLike(['a', 'x,y'], like)).toBe('a,"x,y"');
    expect(encodeCsvRecordLike(['a', 'say "hi"'], like)).toBe('a,"say ""hi"""');
    expect(encodeCsvRecordLike(['a', 'two\nlines'], like)).toBe('a,"two\nlines"');
    expect(encodeCsvRecordLike(['a', 'cr\r'], like)).toBe('a,"cr\r"');
    expect(encodeCsvRecordLike(['a', ' lead'], like)).toBe('a," lead"');
    expect(encodeCsvRecordLike(['a', 'trail '], like)).toBe('a,"trail "');
    expect(encodeCsvRecordLike(['a', 'plain'], like)).toBe('a,plain');
  });

  it('quotes only where needed without a source record, or with one of another width', () => {
    expect(encodeCsvRecordLike(['x', 1, null, { k: 'v, w' }, false], undefined)).toBe(
      'x,1,,"{""k"":""v, w""}",false',
    );
    expect(encodeCsvRecordLike(['a', 'b'], '"a","b","c"')).toBe('a,b');
    expect(encodeCsvRecordLike(['a', 'b'], '"never closed')).toBe('a,b');
  });

  it('writes a one-column empty value as "", not as a blank line', () => {
    expect(encodeCsvRecordLike([''], undefined)).toBe('""');
    expect(encodeCsvRecordLike([null], 'x')).toBe('""');
    // unchanged, a blank line stays one
    expect(encodeCsvRecordLike([''], '')).toBe('');
  });

  it('gives back an odd record (a quote after a closing quote) when nothing changed', () => {
    const like = '"a"b,c';
    expect(encodeCsvRecordLike(['"a"b', 'c'], like)).toBe(like);
    expect(encodeCsvRecordLike(['"a"b', 'd'], like)).toBe('"""a""b",d');
  });

  it('puts row values in header order, missing keys as null', () => {
    const row = { b: 2, a: 1, extra: 'x', undef: undefined };
    expect(csvRecordFor(['a', 'b', 'c', 'undef', 'constructor'], row)).toEqual([
      1,
      2,
      null,
      null,
      null,
    ]);
  });
});

// Random rows of cells that CSV makes tricky, written by a writer with random
// quoting habits, in either newline style: what the reader reads back must
// be written back byte for byte.
const tricky = fc.constantFrom(',', '"', '\r', '\n', '\r\n', ' ', '5', 'true', '[1, 2]', '{"a":1}');
const text = fc
  .array(fc.oneof(tricky, fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 4 })
  .map((parts) => parts.join(''))
  .filter((s) => !s.includes('\u0000')); // a text file has no NUL
const value = fc.oneof(
  text,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
);
const file = fc.integer({ min: 1, max: 4 }).chain((width) =>
  fc.record({
    width: fc.constant(width),
    headerQuoting: fc.array(fc.boolean(), { minLength: width, maxLength: width }),
    rows: fc.array(
      fc.array(fc.tuple(value, fc.boolean()), { minLength: width, maxLength: width }),
      { minLength: 1, maxLength: 8 },
    ),
    newline: fc.constantFrom('\n', '\r\n'),
    endsWithNewline: fc.boolean(),
    bom: fc.boolean(),
  }),
);

describe('round trips of random files', () => {
  it('reads each record as its raw text, and writes it back from its values unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(file, async (spec) => {
        const header = Array.from({ length: spec.width }, (_, i) => `c${i}`);
        const headerRaw = header.map((name, i) => writeCell(name, spec.headerQuoting[i] ?? false));
        const records = spec.rows.map((cells) =>
          cells.map(([cell, quoted]) => writeCell(encodeCell(cell), quoted)).join(','),
        );
        // an unquoted empty last line without a newline after it is no line at all
        if (records.at(-1) === '') records[records.length - 1] = '""';
        const content =
          (spec.bom ? '\ufeff' : '') +
          [headerRaw.join(','), ...records].join(spec.newline) +
          (spec.endsWithNewline ? spec.newline : '');
        const path = temp(content);

        expect(await readCsvLayout(path)).toEqual({
          header,
          header_raw: headerRaw.join(','),
          newline: spec.newline,
        });
        const results = await collect(path);
        expect(results.map((result) => result.raw)).toEqual(records);
        results.forEach((result, i) => {
          if ('error' in result) throw new Error(`row ${result.row}: ${result.error}`);
          const cells = spec.rows[i] ?? [];
          // values as written, read by the cell rule
          expect(Object.values(result.value)).toEqual(
            cells.map(([cell]) => decodeCell(encodeCell(cell))),
          );
          // unchanged, from the values as read or from every cell as text (mapRow's retry)
          expect(encodeCsvRecordLike(csvRecordFor(header, result.value), result.raw)).toBe(
            records[i],
          );
          if (result.text) {
            expect(encodeCsvRecordLike(csvRecordFor(header, result.text), result.raw)).toBe(
              records[i],
            );
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('changes only the changed cell, which reads back as its new value', () => {
    const record = fc
      .integer({ min: 1, max: 5 })
      .chain((width) =>
        fc.tuple(
          fc.array(fc.tuple(value, fc.boolean()), { minLength: width, maxLength: width }),
          fc.nat(width - 1),
          value,
        ),
      );
    fc.assert(
      fc.property(record, ([cells, at, replacement]) => {
        const like = cells.map(([cell, quoted]) => writeCell(encodeCell(cell), quoted)).join(',');
        const values = cells.map(([cell]) => decodeCell(encodeCell(cell)));
        values[at] = replacement;
        const source = cellsOf(like);
        const written = cellsOf(encodeCsvRecordLike(values, like));
        expect(written).toHaveLength(source.length);
        written.forEach((cell, i) => {
          if (i === at) {
            // reads back as the new value; quoted if its source cell was
            expect(decodeCell(cell.text)).toEqual(decodeCell(encodeCell(replacement)));
            if (source[i]?.quoted) expect(cell.quoted).toBe(true);
          } else {
            expect(cell).toEqual(source[i]);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
