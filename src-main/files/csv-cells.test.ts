import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCell, encodeCell } from './csv-cells.ts';

/** The CSV cell rule: which texts read as numbers, booleans or JSON, and what reads back. */

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

  it('reads back booleans, arrays and objects it wrote, as the same JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.boolean(), fc.array(fc.jsonValue()), fc.object()), (value) => {
        // An integer past 2^53 comes back a BigInt, whose JSON is the same digits.
        expect(JSON.stringify(decodeCell(encodeCell(value)))).toEqual(JSON.stringify(value));
      }),
    );
  });

  it('reads an integer past 2^53 inside a JSON cell exactly', () => {
    expect(decodeCell('{"id":1234567890123456789,"n":[-98765432109876543210]}')).toEqual({
      id: 1234567890123456789n,
      n: [-98765432109876543210n],
    });
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
