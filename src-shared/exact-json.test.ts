import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bigintsAsRawJson, exactNumber, parseJsonExact } from './exact-json.ts';

/** JSON values with integers of any size among them (a BigInt outside the safe range). */
const exactJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc
      .bigInt({ min: -(2n ** 80n), max: 2n ** 80n })
      .map((n) =>
        n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(n)
          : n,
      ),
    // Doubles that are integers past 2^53 are read back as BigInts: the bigInt arbitrary has those.
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((d) => !Object.is(d, -0) && !(Number.isInteger(d) && !Number.isSafeInteger(d))),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('exact JSON', () => {
  it('reads back what it wrote, every integer exactly', () => {
    fc.assert(
      fc.property(exactJson, (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonExact(text)).toEqual(value);
        expect(JSON.stringify(parseJsonExact(text))).toBe(text);
      }),
    );
  });

  it('gives what JSON.parse gives, but for integers past 2^53, which write the same text', () => {
    const unsafe = (v: unknown): boolean =>
      typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v);
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const exact = parseJsonExact(text);
        if (
          !JSON.stringify(value, (_k, v: unknown) => (unsafe(v) ? 'UNSAFE' : v)).includes(
            '"UNSAFE"',
          )
        ) {
          expect(exact).toEqual(JSON.parse(text));
        }
        expect(JSON.stringify(exact)).toBe(text);
      }),
    );
  });

  it('reads integers past 2^53 as BigInts and leaves fractions and exponents doubles', () => {
    expect(parseJsonExact('{"id":1234567890123456789,"f":12345678901234567.5,"e":1e21}')).toEqual({
      id: 1234567890123456789n,
      f: Number('12345678901234567.5'), // a double, rounded as JSON.parse rounds it
      e: 1e21,
    });
    expect(parseJsonExact('[9007199254740991,9007199254740992,-9007199254740993]')).toEqual([
      9007199254740991,
      9007199254740992n,
      -9007199254740993n,
    ]);
    // Digits inside a string are no number: the text is only read again, and stays a string.
    expect(parseJsonExact('{"card":"4111111111111111"}')).toEqual({ card: '4111111111111111' });
    expect(exactNumber('12')).toBe(12);
    expect(exactNumber('1e400')).toBe(Infinity);
  });

  it('throws as JSON.parse does on text that is not JSON', () => {
    expect(() => parseJsonExact('{"id":12345678901234567890')).toThrow(SyntaxError);
    expect(() => parseJsonExact('nope')).toThrow(SyntaxError);
  });

  it('writes a BigInt as its digits, unquoted', () => {
    expect(JSON.stringify({ id: 2n ** 64n, n: [-1n] }, null, 1)).toBe(
      '{\n "id": 18446744073709551616,\n "n": [\n  -1\n ]\n}',
    );
  });

  it('turns BigInts into raw JSON, copying only what holds one', () => {
    const plain = { a: [1, 'x'], b: { c: null } };
    expect(bigintsAsRawJson(plain)).toBe(plain);
    const mixed = { a: [1, 2n ** 70n], b: plain };
    const raw = bigintsAsRawJson(mixed) as typeof mixed;
    expect(raw).not.toBe(mixed);
    expect(raw.b).toBe(plain);
    expect(mixed.a[1]).toBe(2n ** 70n);
    expect(JSON.stringify(raw)).toBe(JSON.stringify(mixed));
  });
});
