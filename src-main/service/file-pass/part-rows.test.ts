import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPartRow } from './part-rows.ts';

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
    ]) {
      expect(splitPartRow(bytes(line)), line).toBeUndefined();
    }
  });
});
