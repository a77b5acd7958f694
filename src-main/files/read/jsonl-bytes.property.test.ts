import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonlRowsOf, jsonlRowsOfBytes } from './jsonl.ts';

/**
 * `jsonlRowsOfBytes` decodes only the lines asked for; it must read them as
 * `jsonlRowsOf` reads them out of the whole slice decoded at once: any bytes
 * (broken UTF-8 next to line ends, CR, a BOM), any first line, any lines.
 */

const piece = fc.oneof(
  fc.constantFrom('\n', '\r\n', '\r', '{"a":1}', '{"t":"é€😀"}', '[1]', ' ', '\ufeff', '"x"'),
  fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => JSON.stringify({ s })),
);
const broken = fc.constantFrom([0xe2, 0x82], [0xf0, 0x9f], [0xff], [0xc3], [0xef, 0xbb, 0xbf]);

const bytesOf = fc
  .array(fc.oneof({ weight: 4, arbitrary: piece.map((p) => [...Buffer.from(p)]) }, broken), {
    maxLength: 40,
  })
  .map((parts) => Buffer.from(parts.flat()));

describe('jsonlRowsOfBytes', () => {
  it('reads the lines asked for as jsonlRowsOf reads them from the decoded slice', () => {
    fc.assert(
      fc.property(
        bytesOf,
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.integer({ min: 1, max: 50 })),
        (bytes, first, asked) => {
          const only = new Set(asked);
          expect(jsonlRowsOfBytes(bytes, first, only)).toEqual(
            jsonlRowsOf(bytes.toString('utf8'), first, only),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
