import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonlRowsOf, readJsonlBatches, type RowResult } from '../../files/index.ts';
import { lineSlices, readSlice, SLICE_BYTES } from './line-slices.ts';
import { fileText, linesFile, lineText, tempLinesFiles } from './testing/line-files.ts';

/**
 * JSON Lines read whole (`readJsonl`, a batch at a time) and read a slice at
 * a time, as the file pass's workers read it (`jsonlRowsOf` over
 * `lineSlices`): the same rows, numbers, values, raw text and errors,
 * whatever the slice size.
 */

const temp = tempLinesFiles('svc-slice-rows-test-');

async function whole(path: string): Promise<RowResult[]> {
  const rows: RowResult[] = [];
  for await (const batch of readJsonlBatches(path)) rows.push(...batch);
  return rows;
}

async function sliced(path: string, target: number): Promise<RowResult[]> {
  const rows: RowResult[] = [];
  for await (const slice of lineSlices(path, undefined, target)) {
    // Read and decoded as the workers do (tasks.ts).
    rows.push(...jsonlRowsOf(readSlice(path, slice).toString('utf8'), slice.firstLine));
  }
  return rows;
}

const anObject = fc
  .dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
  .map((value) => JSON.stringify(value));

/** Lines of every kind a JSON Lines file holds, good and bad. */
const anyLine = fc.oneof(
  anObject,
  // Padded, and with text JSON.parse must read as it is (escapes, multi-byte UTF-8).
  anObject.map((json) => ` ${json}\t`),
  fc.constant('{"text":"naïve café 😀 \\u00e9 \\n"}'),
  fc.constantFrom('{"a":', 'nope', '{x: 1}', '{"a":1}}', '[1,', '\ufeff{"a":1}'),
  fc.jsonValue({ maxDepth: 1 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('', '   ', '\t', '\r'),
  lineText,
);

/** Blank lines, then an object: the rule on a file that starts unparsable is the head's, not a slice's. */
const jsonlLines = fc
  .tuple(
    fc.array(fc.constantFrom('', '  '), { maxLength: 3 }),
    anObject,
    fc.array(anyLine, { maxLength: 60, size: 'max' }),
  )
  .map(([blanks, first, rest]) => [...blanks, first, ...rest]);

describe('jsonlRowsOf over the slices of a file', () => {
  it('gives the rows readJsonl gives for the whole file', async () => {
    await fc.assert(
      fc.asyncProperty(
        linesFile(jsonlLines),
        // Small slices, and one slice for the whole file.
        fc.oneof(fc.integer({ min: 1, max: 500 }), fc.constant(SLICE_BYTES)),
        async (parts, target) => {
          const path = temp(fileText(parts));
          expect(await sliced(path, target)).toEqual(await whole(path));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads the shipped datasets as readJsonl does', async () => {
    const dir = join(import.meta.dirname, '..', '..', '..', 'resources', 'datasets');
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
      const path = temp(readFileSync(join(dir, name), 'utf8'));
      const rows = await whole(path);
      expect(rows.length).toBeGreaterThan(0);
      expect(await sliced(path, 4096)).toEqual(rows);
    }
  });
});
