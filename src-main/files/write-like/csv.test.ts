import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCell, encodeCell } from '../csv-cells.ts';
import { readCsv } from '../read/csv.ts';
import type { RowResult } from '../read/row-result.ts';
import { tempFiles } from '../testing/files-test-kit.ts';
import { readCsvLayout } from './csv-layout.ts';
import { csvRecordFor, encodeCsvRecordLike } from './csv-record.ts';

/**
 * CSV written back byte for byte: the layout, records re-encoded with their
 * source's quoting, and random files read and written back.
 */

const temp = tempFiles('svc-csv-test-', '.csv');

async function collect(path: string, signal?: AbortSignal): Promise<RowResult[]> {
  const results: RowResult[] = [];
  for await (const result of readCsv(path, signal)) results.push(result);
  return results;
}

/** A cell as a writer with its own quoting habits writes it: quoted when asked, or when it must be. */
function writeCell(text: string, quoted: boolean, delimiter = ','): string {
  return quoted || /["\r\n]/.test(text) || text.includes(delimiter)
    ? `"${text.replaceAll('"', '""')}"`
    : text;
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
const tricky = fc.constantFrom(
  ',',
  ';',
  '\t',
  '"',
  '\r',
  '\n',
  '\r\n',
  ' ',
  '5',
  'true',
  '[1, 2]',
  '{"a":1}',
);
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
    // A one-column header has no separator to tell: such a file is read as comma-separated.
    delimiter: width === 1 ? fc.constant(',' as const) : fc.constantFrom(',', ';', '\t'),
  }),
);

describe('round trips of random files', () => {
  it('reads each record as its raw text, and writes it back from its values unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(file, async (spec) => {
        const header = Array.from({ length: spec.width }, (_, i) => `c${i}`);
        const { delimiter } = spec;
        const headerRaw = header.map((name, i) => writeCell(name, spec.headerQuoting[i] ?? false));
        const records = spec.rows.map((cells) =>
          cells
            .map(([cell, quoted]) => writeCell(encodeCell(cell), quoted, delimiter))
            .join(delimiter),
        );
        // an unquoted empty last line without a newline after it is no line at all
        if (records.at(-1) === '') records[records.length - 1] = '""';
        const content =
          (spec.bom ? '\ufeff' : '') +
          [headerRaw.join(delimiter), ...records].join(spec.newline) +
          (spec.endsWithNewline ? spec.newline : '');
        const path = temp(content);

        expect(await readCsvLayout(path)).toEqual({
          header,
          header_raw: headerRaw.join(delimiter),
          newline: spec.newline,
          ...(delimiter === ',' ? {} : { delimiter }),
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
          expect(
            encodeCsvRecordLike(csvRecordFor(header, result.value), result.raw, delimiter),
          ).toBe(records[i]);
          if (result.text) {
            expect(
              encodeCsvRecordLike(csvRecordFor(header, result.text), result.raw, delimiter),
            ).toBe(records[i]);
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
