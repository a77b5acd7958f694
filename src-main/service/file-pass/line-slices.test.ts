import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileText, lineText, linesFile, tempLinesFiles } from './testing/line-files.ts';
import { lineSlices, readSlice, sliceBytes, SLICE_BYTES, type LineSlice } from './line-slices.ts';

/**
 * A file cut into slices of whole lines: whatever the slice size, the slices
 * are the file, one after another, each cut at a line end and numbered by
 * its first line, and each read again as it was read first.
 */

const temp = tempLinesFiles('svc-line-slices-test-');

async function slicesOf(
  path: string,
  target: number,
): Promise<{ slice: LineSlice; bytes: Buffer }[]> {
  const out: { slice: LineSlice; bytes: Buffer }[] = [];
  for await (const slice of lineSlices(path, undefined, target)) {
    out.push({ slice, bytes: readSlice(path, slice) });
  }
  return out;
}

const newlines = (bytes: Buffer): number => bytes.reduce((n, b) => (b === 10 ? n + 1 : n), 0);

describe('lineSlices', () => {
  it('cuts any file of lines into slices of whole lines that make up the file', async () => {
    await fc.assert(
      fc.asyncProperty(
        linesFile(fc.array(lineText, { maxLength: 60, size: 'max' })),
        fc.integer({ min: 1, max: 500 }),
        async (parts, target) => {
          const file = Buffer.from(fileText(parts), 'utf8');
          const path = temp(fileText(parts));
          const slices = await slicesOf(path, target);

          expect(Buffer.concat(slices.map((s) => s.bytes)).equals(file)).toBe(true);
          let start = 0;
          let linesBefore = 0;
          slices.forEach(({ slice, bytes }, i) => {
            expect(bytes.length).toBeGreaterThan(0);
            expect(slice.start).toBe(start);
            expect(slice.length).toBe(bytes.length);
            expect(slice.firstLine).toBe(linesBefore + 1);
            // Every slice but the file's last ends a line; a slice holds whole lines only.
            if (i < slices.length - 1) expect(bytes[bytes.length - 1]).toBe(10);
            start += bytes.length;
            linesBefore += newlines(bytes);
          });

          for (const { slice, bytes } of slices) {
            expect(readSlice(path, slice).equals(bytes)).toBe(true);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives no slice of an empty file', async () => {
    expect(await slicesOf(temp(''), 7)).toEqual([]);
  });

  it('keeps a line longer than the slice size whole, in one slice', async () => {
    const long = 'é'.repeat(40); // 80 bytes
    const slices = await slicesOf(temp(`a\n${long}\nb`), 16);
    expect(slices.map((s) => s.bytes.toString('utf8'))).toEqual(['a\n', `${long}\n`, 'b']);
    expect(slices.map((s) => s.slice.firstLine)).toEqual([1, 2, 3]);
  });

  it('refuses to read a slice again past the end of a file that shrank', () => {
    const path = temp('one\ntwo\n');
    expect(() => readSlice(path, { start: 4, length: 10 })).toThrow(/shrank/);
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const reading = lineSlices(temp('a\nb\n'), controller.signal, 1);
    await expect(reading.next()).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('takes its slice size from SVC_FILE_PASS_SLICE_BYTES when that is a positive integer', () => {
    expect(sliceBytes({ SVC_FILE_PASS_SLICE_BYTES: '64' })).toBe(64);
    expect(sliceBytes({})).toBe(SLICE_BYTES);
    expect(sliceBytes({ SVC_FILE_PASS_SLICE_BYTES: '0' })).toBe(SLICE_BYTES);
    expect(sliceBytes({ SVC_FILE_PASS_SLICE_BYTES: '1.5' })).toBe(SLICE_BYTES);
  });
});
