import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileText, lineText, linesFile, tempLinesFiles } from './testing/line-files.ts';
import { oneCore } from '../threads/one-core.ts';
import { cutLines } from './line-cutter.ts';
import { lineSlices, type LineSlice } from './line-slices.ts';

/** The slices cut on a thread of their own are the slices cut here, for any file and size. */

const temp = tempLinesFiles('svc-line-cutter-test-');

async function all(slices: AsyncIterable<LineSlice>): Promise<LineSlice[]> {
  const out: LineSlice[] = [];
  for await (const slice of slices) out.push(slice);
  return out;
}

describe('cutLines', () => {
  // On one core it cuts in this thread: its own thread is what is compared here.
  it.skipIf(oneCore())('cuts a file as lineSlices does, on its own thread', async () => {
    await fc.assert(
      fc.asyncProperty(
        linesFile(fc.array(lineText, { maxLength: 60, size: 'max' })),
        fc.integer({ min: 1, max: 400 }),
        async (parts, target) => {
          const path = temp(fileText(parts));
          expect(await all(cutLines(path, undefined, target))).toEqual(
            await all(lineSlices(path, undefined, target)),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('stops when its reader stops, and when the run is cancelled', async () => {
    const path = temp(`${Array.from({ length: 2000 }, (_, i) => `{"n":${i}}`).join('\n')}\n`);
    const first: LineSlice[] = [];
    for await (const slice of cutLines(path, undefined, 64)) {
      first.push(slice);
      if (first.length === 3) break;
    }
    expect(first).toEqual((await all(lineSlices(path, undefined, 64))).slice(0, 3));
    const controller = new AbortController();
    const seen: LineSlice[] = [];
    const cancelled = (async () => {
      for await (const slice of cutLines(path, controller.signal, 64)) {
        seen.push(slice);
        controller.abort();
      }
    })();
    await expect(cancelled).rejects.toMatchObject({ code: 'cancelled' });
    expect(seen).toHaveLength(1);
  });

  it('says why a file cannot be read', async () => {
    await expect(all(cutLines('/no/such/file.jsonl'))).rejects.toThrow(/no such file|ENOENT/);
  });
});
