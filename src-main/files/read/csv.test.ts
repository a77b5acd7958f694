import { describe, expect, it } from 'vitest';
import { failure, tempFiles } from '../testing/files-test-kit.ts';
import { readCsvLayout } from '../write-like/csv-layout.ts';
import { readCsv } from './csv.ts';
import type { RowResult } from './row-result.ts';

/**
 * CSV read with each row's raw source text, which writing back like the
 * source needs (write-like/csv.test.ts has that half of the round trip).
 */

const temp = tempFiles('svc-csv-test-', '.csv');

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
