import { isUtf8 } from 'node:buffer';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstNonUtf8Line, Utf8Watch } from './utf8-watch.ts';

/** The first line (1-based) that is not UTF-8, read line by line off the whole file. */
function reference(bytes: Buffer): number | undefined {
  let line = 1;
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(10, start);
    if (!isUtf8(bytes.subarray(start, end === -1 ? bytes.length : end))) return line;
    if (end === -1) return undefined;
    line++;
    start = end + 1;
  }
}

/** Watches `bytes` cut into chunks at `cuts`, as a file is read. */
function watched(bytes: Buffer, cuts: number[]): number | undefined {
  const watch = new Utf8Watch();
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const to of [...at, bytes.length]) {
    const chunk = bytes.subarray(from, to);
    let newlines = 0;
    for (const byte of chunk) if (byte === 10) newlines++;
    watch.feed(chunk, newlines);
    from = to;
  }
  watch.end();
  return watch.firstBadLine;
}

/** Lines of text (multi-byte characters among them), now and then a stray byte. */
const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => Buffer.from(s)),
      fc.constantFrom(Buffer.from('\n'), Buffer.from('é€𝄞\n')),
      fc.constantFrom(Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82])),
    ),
    { maxLength: 40 },
  )
  .map((parts) => Buffer.concat(parts));

describe('Utf8Watch', () => {
  it('finds the first line that is not UTF-8, however the file is cut into chunks', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        expect(watched(bytes, cuts)).toBe(reference(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a character cut by a chunk for one', () => {
    const bytes = Buffer.from('a\nbé\n€\n𝄞');
    for (let cut = 0; cut <= bytes.length; cut++) expect(watched(bytes, [cut])).toBeUndefined();
    expect(watched(Buffer.from([0x61, 0x0a, 0xe2, 0x82]), [3])).toBe(2);
  });

  it('names the line of a file read whole, and none in a file of UTF-8', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-utf8-'));
    const bad = join(dir, 'bad.jsonl');
    const lines = Array.from({ length: 40_000 }, (_, i) => `{"text":"Line ${i}, fine: é€."}`);
    // Past the first 1 MiB chunk (the file is 1.3 MB): line 35,000 holds a Windows-1252 apostrophe.
    const bytes = Buffer.from(lines.join('\n') + '\n');
    const at = bytes.indexOf(Buffer.from('Line 34999,'));
    writeFileSync(
      bad,
      Buffer.concat([bytes.subarray(0, at), Buffer.from([0x92]), bytes.subarray(at)]),
    );
    expect(await firstNonUtf8Line(bad)).toBe(35_000);
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, bytes);
    expect(await firstNonUtf8Line(good)).toBeUndefined();
  });
});
