import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonWithLeadingArray } from './json-in-turns.ts';

/** A member name as the routes use them: never one an object would list first (an index). */
const name = fc.string().filter((s) => !/^(?:0|[1-9]\d*)$/.test(s));

describe('jsonWithLeadingArray', () => {
  it('writes what JSON.stringify writes of the whole, in UTF-8', async () => {
    await fc.assert(
      fc.asyncProperty(
        name,
        // Lone surrogates too: JSON.stringify escapes them, so the UTF-8 holds every character.
        fc.array(fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.constant(undefined))),
        fc.dictionary(name, fc.jsonValue()),
        async (key, items, rest) => {
          fc.pre(!Object.hasOwn(rest, key));
          const bytes = await jsonWithLeadingArray(key, items, rest);
          expect(Buffer.from(bytes).toString('utf8')).toBe(
            JSON.stringify({ [key]: items, ...rest }),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lets the event loop turn while it writes a large answer', async () => {
    const items = Array.from({ length: 400 }, (_, i) => ({ text: `${i} ${'x'.repeat(50_000)}` }));
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    try {
      const bytes = await jsonWithLeadingArray('audited_data', items, { counts: { passed: 400 } });
      expect(bytes.length).toBeGreaterThan(20_000_000);
    } finally {
      clearInterval(counting);
    }
    expect(turns).toBeGreaterThan(0);
  });
});
