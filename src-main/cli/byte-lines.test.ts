import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fileText,
  lineText,
  linesFile,
  tempLinesFiles,
} from '../service/file-pass/testing/line-files.ts';
import { ByteLines } from './byte-lines.ts';

/**
 * A file's lines found as bytes: whatever the lines (empty, CRLF, a CR
 * inside, multi-byte, longer than the buffer), they are the file's text cut
 * at each `\n` with a CR before it dropped, and each line's range in the file
 * holds exactly its bytes, the next starting where it ends.
 */

const temp = tempLinesFiles('svc-byte-lines-test-');

async function readAll(path: string): Promise<{ text: string; start: number; end: number }[]> {
  const lines = await ByteLines.open(path);
  const out: { text: string; start: number; end: number }[] = [];
  try {
    for (let line = await lines.next(); line; line = await lines.next()) {
      out.push({ text: line.bytes.toString('utf8'), start: line.start, end: line.end });
    }
  } finally {
    await lines.close();
  }
  return out;
}

describe('ByteLines', () => {
  it('cuts a file at its line ends, each line where it is in the file', async () => {
    await fc.assert(
      fc.asyncProperty(
        linesFile(fc.array(lineText, { maxLength: 40 })),
        fc.integer({ min: 0, max: 3 }),
        async (file, longLines) => {
          const withLong = {
            ...file,
            bom: false,
            // Lines longer than the 64 KiB buffer make it grow.
            lines: file.lines.map((line, i) => (i < longLines ? line + 'x'.repeat(70_000) : line)),
          };
          const text = fileText(withLong);
          const path = temp(text);
          const expected = text.split('\n');
          if (expected[expected.length - 1] === '') expected.pop();
          const lines = await readAll(path);
          expect(lines.map((l) => l.text)).toEqual(
            expected.map((line, i) =>
              line.endsWith('\r') && (i < expected.length - 1 || text.endsWith('\n'))
                ? line.slice(0, -1)
                : line,
            ),
          );
          const bytes = readFileSync(path);
          let at = 0;
          for (const line of lines) {
            expect(line.start).toBe(at);
            expect(
              bytes.subarray(line.start, line.start + Buffer.byteLength(line.text)).toString(),
            ).toBe(line.text);
            at = line.end;
          }
          expect(at).toBe(bytes.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives no line of an empty file', async () => {
    expect(await readAll(temp(''))).toEqual([]);
  });
});
