import { isUtf8 } from 'node:buffer';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { svcProcess } from './testing/cli-test-kit.ts';
import { Utf8Watch } from './utf8-watch.ts';

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

  it('svc audit says which line holds such bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-utf8-'));
    const file = join(dir, 'rows.jsonl');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{"text":"A fine line."}\n{"text":"tur'),
        Buffer.from([0x92]),
        Buffer.from('stico"}\n'),
      ]),
    );
    const run = await svcProcess(dir, 'audit', file, '--out', join(dir, 'out.jsonl'));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `note: line 2 of ${file} (and maybe others) holds bytes that are not UTF-8`,
    );
  });
});
