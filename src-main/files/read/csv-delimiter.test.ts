import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRows, readLayout, writeRowsLike, type SourcedRow } from '../index.ts';
import { tempFiles } from '../testing/files-test-kit.ts';
import { csvDelimiter } from './csv-delimiter.ts';
import type { RowResult } from './row-result.ts';

/**
 * CSV separated by commas, tabs or semicolons: the header decides, the rows
 * read as their columns, and a file written like its source keeps its
 * separator unless the target's name asks for another.
 */

const csv = tempFiles('svc-csv-delimiter-', '.csv');
const tsv = tempFiles('svc-tsv-delimiter-', '.tsv');
const head = (text: string): Buffer => Buffer.from(text);

async function* asyncRows(rows: SourcedRow[]): AsyncGenerator<SourcedRow> {
  await Promise.resolve();
  yield* rows;
}

async function rowsOf(path: string): Promise<RowResult[]> {
  const rows: RowResult[] = [];
  for await (const row of readRows(path)) rows.push(row);
  return rows;
}

describe('the separator of a CSV file', () => {
  it('is what its header separates with: a comma, else a tab, else a semicolon', () => {
    expect(csvDelimiter('a.csv', head('question,answer\n1;2\t3'))).toBe(',');
    expect(csvDelimiter('a.csv', head('question\tanswer\n1,2\t3\n'))).toBe('\t');
    expect(csvDelimiter('a.csv', head('question;answer\n"1,5";2\n'))).toBe(';');
    expect(csvDelimiter('a.csv', head('text\nhello, world; again'))).toBe(',');
  });

  it('counts only what is outside quotes, after blank lines and a byte order mark', () => {
    expect(csvDelimiter('a.csv', head('"q, a";"b"\n1;2\n'))).toBe(';');
    expect(csvDelimiter('a.csv', head('\ufeff\r\n\r\nq;a\r\n1;2\r\n'))).toBe(';');
    expect(csvDelimiter('a.csv', head('"multi\nline, name";x\ny;z\n'))).toBe(';');
  });

  it('takes a tab or semicolon only if the rows after the header hold as many', () => {
    // One column whose name holds a semicolon or ends with a tab: as before, one column.
    expect(csvDelimiter('a.csv', head('text; notes\nhello world\nbye\n'))).toBe(',');
    expect(csvDelimiter('a.csv', head('prompt\t\nhello\n'))).toBe(',');
    // A bad row among good ones does not make it another separator.
    expect(csvDelimiter('a.csv', head('q;a\n1;2\nbroken\n3;4\n'))).toBe(';');
    expect(csvDelimiter('a.csv', head('q\ta\nwhat?\t"x\ny"\n'))).toBe('\t');
  });

  it('opens a quote only at the start of a cell, as the reader does', () => {
    expect(csvDelimiter('a.csv', head('size 5",name\n1,"a;b"\n2,c\n'))).toBe(',');
    expect(csvDelimiter('a.csv', head('Größe 5";Name\n1;"x\ty"\n'))).toBe(';');
    expect(csvDelimiter('a.csv', head('"say ""hi"", ok";b\n1;2\n'))).toBe(';');
  });

  it('takes no separator from a header with no record after it to tell', () => {
    expect(csvDelimiter('a.csv', head('text; notes\n'), true)).toBe(',');
    // The head ends inside the first row (longer than the head): no record to tell.
    expect(csvDelimiter('a.csv', head(`text; notes\n${'x'.repeat(100)}`))).toBe(',');
    // The head is the whole file: its last row counts, with or without a line break.
    expect(csvDelimiter('a.csv', head('text; notes\nhello'), true)).toBe(',');
    expect(csvDelimiter('a.csv', head('q;a\n1;2'), true)).toBe(';');
    expect(csvDelimiter('a.tsv', head('question, asked\nhello, world, again'), true)).toBe('\t');
  });

  it('counts each separator as the reader would cut cells with it', () => {
    // Read with commas, the quote after the semicolon is text: the header has a comma.
    expect(csvDelimiter('a.csv', head('q;"x,y"\n1;"2,3"\n'))).toBe(',');
  });

  it('looks for a tab first in a .tsv file, whose column names may hold commas', () => {
    expect(csvDelimiter('a.TSV', head('question, asked\tanswer\n'))).toBe('\t');
    expect(csvDelimiter('a.csv', head('question, asked\tanswer\n'))).toBe(',');
    // One column: still a TSV, so it is written back as one.
    expect(csvDelimiter('a.tsv', head('text\nhello, world\nfine\n'))).toBe('\t');
    expect(csvDelimiter('a.tsv', head('q,a\n1,2\n'))).toBe(',');
  });
});

describe('semicolon and tab separated files', () => {
  const semicolons = 'question;answer;score\r\nWhat is 1,5 + 1?;"2,5";1\r\n"A; B?";yes;0\r\n';
  const tabs = 'question\tanswer\nWhat is 2 + 2?\t4\n"a\ttab"\tfive, or 5\n';

  it('read as their columns', async () => {
    expect(await rowsOf(csv(semicolons))).toEqual([
      {
        row: 1,
        value: { question: 'What is 1,5 + 1?', answer: '2,5', score: 1 },
        text: { question: 'What is 1,5 + 1?', answer: '2,5', score: '1' },
        raw: 'What is 1,5 + 1?;"2,5";1',
      },
      {
        row: 2,
        value: { question: 'A; B?', answer: 'yes', score: 0 },
        text: { question: 'A; B?', answer: 'yes', score: '0' },
        raw: '"A; B?";yes;0',
      },
    ]);
    expect(await rowsOf(tsv(tabs))).toEqual([
      {
        row: 1,
        value: { question: 'What is 2 + 2?', answer: 4 },
        text: { question: 'What is 2 + 2?', answer: '4' },
        raw: 'What is 2 + 2?\t4',
      },
      { row: 2, value: { question: 'a\ttab', answer: 'five, or 5' }, raw: '"a\ttab"\tfive, or 5' },
    ]);
  });

  /** The file's rows written like it to `target`, the second row's answer changed. */
  async function writtenLike(source: string, target: string): Promise<string> {
    const layout = await readLayout(source, 'csv');
    const rows: SourcedRow[] = [];
    for (const row of await rowsOf(source)) {
      if ('error' in row) throw new Error(row.error);
      const changed = row.row === 2;
      rows.push({
        value: changed ? { ...row.value, answer: 'no; or 7' } : row.value,
        raw: row.raw,
        changed,
      });
    }
    await writeRowsLike(target, 'csv', asyncRows(rows), layout);
    return readFileSync(target, 'utf8');
  }

  // Written like the source where the name fits its separator; plainly (commas, or tabs in .tsv) where not.
  it.each([
    [
      'a semicolon CSV to .csv: its separator, unchanged rows byte for byte',
      semicolons,
      csv,
      'out.csv',
      'question;answer;score\r\nWhat is 1,5 + 1?;"2,5";1\r\n"A; B?";"no; or 7";0\r\n',
    ],
    [
      'a TSV to .tsv: tabs, unchanged rows byte for byte',
      tabs,
      tsv,
      'out.tsv',
      'question\tanswer\nWhat is 2 + 2?\t4\n"a\ttab"\tno; or 7\n',
    ],
    [
      'a TSV to .csv: commas',
      tabs,
      tsv,
      'out.csv',
      'question,answer\nWhat is 2 + 2?,4\na\ttab,no; or 7\n',
    ],
    [
      'a TSV to a name of no format: tabs, as its source',
      tabs,
      tsv,
      'out.txt',
      'question\tanswer\nWhat is 2 + 2?\t4\n"a\ttab"\tno; or 7\n',
    ],
    [
      'a semicolon CSV to .tsv: tabs',
      semicolons,
      csv,
      'out.tsv',
      'question\tanswer\tscore\nWhat is 1,5 + 1?\t2,5\t1\nA; B?\tno; or 7\t0\n',
    ],
  ])('are written back: %s', async (_case, content, temp, name, expected) => {
    const source = temp(content);
    expect(await writtenLike(source, join(source, '..', name))).toBe(expected);
  });
});

describe('a one-column TSV', () => {
  it('is written back byte for byte, commas and all', async () => {
    const content = 'text\nhello, world\n"quoted; cell"\n';
    const source = tsv(content);
    const layout = await readLayout(source, 'csv');
    const rows: SourcedRow[] = [];
    for (const row of await rowsOf(source)) {
      if ('error' in row) throw new Error(row.error);
      rows.push({ value: row.value, raw: row.raw, changed: false });
    }
    const target = join(source, '..', 'one-column-out.tsv');
    await writeRowsLike(target, 'csv', asyncRows(rows), layout);
    expect(readFileSync(target, 'utf8')).toBe(content);
  });
});

describe('a one-column CSV written plainly', () => {
  it('quotes a column name with a semicolon or tab, so it is read back as one column', async () => {
    const { writeRows } = await import('../index.ts');
    const path = csv('');
    await writeRows(path, 'csv', [{ 'a;b': 'x;y' }]);
    expect(readFileSync(path, 'utf8')).toBe('"a;b"\n"x;y"\n');
    expect(await rowsOf(path)).toEqual([{ row: 1, value: { 'a;b': 'x;y' }, raw: '"x;y"' }]);
  });
});
