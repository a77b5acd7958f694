import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPartRow, splitPartRowAt } from './part-rows.ts';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('splitPartRow', () => {
  it('cuts a row as the part writer writes it into its position, source row and sample bytes', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 40 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (position, source_row, sample) => {
          const line = bytes(JSON.stringify({ position, source_row, sample }));
          const cut = splitPartRow(line);
          expect(cut).toMatchObject({ position, source_row });
          const text = line.subarray(cut?.sampleStart, cut?.sampleEnd).toString('utf8');
          expect(text).toBe(JSON.stringify(sample));
        },
      ),
    );
  });

  it('leaves any other line to be parsed', () => {
    for (const line of [
      '',
      'not json',
      '{"svc_part_end":true}',
      '{"position":01,"source_row":1,"sample":{}}',
      '{"position":1,"source_row":-1,"sample":{}}',
      '{"position":1,"source_row":1,"sample":[]}',
      '{"position":1,"source_row":1,"sample":"x"}',
      '{"position":1,"source_row":1,"sample":{}',
      '{"source_row":1,"position":1,"sample":{}}',
      '{"position":1,"source_row":1,"sample":{},"more":1}',
      '{"position":1 ,"source_row":1,"sample":{}}',
      '{"position":1,"source_row":1 ,"sample":{}}',
      '{"position":,"source_row":1,"sample":{}}',
      '{"position":1,"source_row":,"sample":{}}',
      '{"position":1x,"source_row":1,"sample":{}}',
      '{"position":1234567890123456,"source_row":1,"sample":{}}',
    ]) {
      expect(splitPartRow(bytes(line)), line).toBeUndefined();
    }
  });
});

describe('splitPartRowAt', () => {
  it('cuts a line of a larger buffer as splitPartRow cuts the line alone', () => {
    const row = fc
      .record({
        position: fc.nat({ max: 2 ** 40 }),
        source_row: fc.integer({ min: 1, max: 2 ** 40 }),
        sample: fc.dictionary(fc.string(), fc.jsonValue()),
      })
      .map((value) => JSON.stringify(value));
    // Lines that are almost rows: what is missing may stand in a later line of the buffer.
    const broken = fc.constantFrom(
      '{"position":1',
      '{"position":1,"source_row":2',
      '{"position":1,"source_row":2,"sample":{}',
      ',"source_row":3,"sample":{"a":1}}',
      '',
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(row, broken), fc.constantFrom('\n', '\r\n')), {
          minLength: 1,
          maxLength: 8,
        }),
        (lines) => {
          const buffer = bytes(lines.map(([line, end]) => line + end).join(''));
          let at = 0;
          for (const [line, end] of lines) {
            const length = Buffer.byteLength(line);
            const alone = splitPartRow(bytes(line));
            const within = splitPartRowAt(buffer, at, at + length);
            expect(within, line).toEqual(
              alone && {
                ...alone,
                sampleStart: alone.sampleStart + at,
                sampleEnd: alone.sampleEnd + at,
              },
            );
            at += length + end.length;
          }
        },
      ),
    );
  });
});
