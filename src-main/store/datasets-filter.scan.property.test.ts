import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { leafText } from '../../src-shared/row-fields.ts';
import { searchFold } from '../../src-shared/search-fold.ts';
import { scannedFieldSearch, scannedSearch } from './datasets-filter.ts';

/**
 * The raw pre-check of a scanning search (scannedSearch) never loses a row:
 * whenever a search it applies to is in a row's derived search text (every
 * leaf, lowercased), SQLite's LIKE finds it in the row's JSON, however
 * the JSON was written (as JSON.stringify writes it; with every non-ASCII
 * character escaped, as Python's ensure_ascii does; with `<>&'` escaped, as
 * Go does; with `/` escaped, as PHP does).
 */

const db = new Database(':memory:');
afterAll(() => db.close());
// The pre-check as the scan runs it: the row's JSON against the check's first parameter.
const rawHolds = db.prepare("SELECT ? LIKE ? ESCAPE '\\'").pluck();

const escapeNonAscii = (json: string): string =>
  json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const escapeHtml = (json: string): string =>
  json.replace(/[<>&']/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const escapeSlash = (json: string): string => json.replaceAll('/', '\\/');

// Letters of both cases, digits, punctuation JSON escapes, and non-ASCII text, among it the two
// characters JavaScript lowercases to ASCII (the Kelvin sign, `İ`).
const char = fc.constantFrom(
  ...'aAbBzZiIkK09 .,!?-_/\\"\'<>&:;()[]{}#$%*+=@^`|~\t\néÉßçÇİıΣσςЖж中文😀'.split(''),
  ...['é', 'Ω', '\u0301', '€', '\u212a', '\u0130'],
);
// And texts of a few letters among the characters that matter, so searches often hold them.
const tricky = fc.constantFrom(...'ab /<>&\'"\\%_iIkK'.split(''), '\u212a', '\u0130');
const text = fc.oneof(
  fc.string({ unit: char, maxLength: 24 }),
  fc.string({ unit: tricky, maxLength: 10 }),
);
const leaf = fc.oneof(
  text,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const row = fc.dictionary(
  fc.constantFrom('question', 'answer', 'meta', 'Text', 'é'),
  fc.oneof(
    leaf,
    fc.array(leaf, { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('src', 'x'), leaf),
  ),
  { minKeys: 1 },
);

describe('the raw pre-check of a scanning search', () => {
  it('holds every row whose derived text holds a search it applies to', () => {
    fc.assert(
      fc.property(
        row,
        fc.nat(),
        fc.nat(),
        fc.constantFrom(
          JSON.stringify,
          (v: unknown) => escapeNonAscii(JSON.stringify(v)),
          (v: unknown) => escapeHtml(JSON.stringify(v)),
          (v: unknown) => escapeSlash(JSON.stringify(v)),
        ),
        (value, at, length, write) => {
          const derived = searchFold(leafText(value));
          const start = at % Math.max(1, derived.length);
          const search = derived.slice(start, start + 1 + (length % 12));
          const check = scannedSearch(search);
          // A search the pre-check does not apply to is tested on the derived text alone.
          if (check.params.length === 1) return;
          expect(rawHolds.get(write(value), check.params[0])).toBe(1);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('applies to plain searches with a letter, not to numbers alone or escaped characters', () => {
    expect(scannedSearch('50% of_it').params[0]).toBe('%50\\% of\\_it%');
    for (const search of ['janet', 'how many', 'x = 3', 'eggs?', '(7) eggs']) {
      expect(scannedSearch(search).params).toEqual([`%${search}%`, search]);
      // A field's text is part of the row's: the same pre-check.
      expect(scannedFieldSearch('meta.src', search).params).toEqual([
        `%${search}%`,
        'meta.src',
        search,
      ]);
    }
    for (const search of [
      '1000',
      '3.5',
      'café',
      'a/b',
      'say "hi"',
      "don't",
      'a<b',
      'line\nnext',
      'book',
      'mini',
    ]) {
      expect(scannedSearch(search).params).toEqual([search]);
      expect(scannedFieldSearch('meta.src', search).params).toEqual(['meta.src', search]);
    }
  });
});
