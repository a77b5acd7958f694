import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll } from 'vitest';

/**
 * Arbitrary text files of lines for the property tests of line reading:
 * empty lines, CRLF and LF ends, a lone CR inside a line, multi-byte UTF-8
 * (accented letters, CJK, emoji), an optional BOM and final newline.
 */

/** Characters of 1 to 4 bytes in UTF-8, and the ones line reading must not trip on. */
const char = fc.constantFrom(
  'a',
  'z',
  ' ',
  '{',
  '"',
  ':',
  '\t',
  '\r',
  'é',
  'ß',
  'Ω',
  '中',
  '😀',
  '🧪',
);

/** A line's text, sometimes empty, sometimes long (hundreds of bytes). */
export const lineText = fc.oneof(
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 4, arbitrary: fc.string({ unit: char, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: char, minLength: 40, maxLength: 160 }) },
);

export interface LinesFile {
  lines: string[];
  ends: ('\n' | '\r\n')[];
  bom: boolean;
  finalNewline: boolean;
}

/** A file's text from its parts: each line with its end, the last without one unless `finalNewline`. */
export function fileText({ lines, ends, bom, finalNewline }: LinesFile): string {
  const body = lines
    .map((line, i) => (i < lines.length - 1 || finalNewline ? line + (ends[i] ?? '\n') : line))
    .join('');
  return (bom ? '\ufeff' : '') + body;
}

/** A file of `lines` (any arbitrary of a line's text). */
export const linesFile = (lines: fc.Arbitrary<string[]>): fc.Arbitrary<LinesFile> =>
  lines.chain((texts) =>
    fc.record({
      lines: fc.constant(texts),
      ends: fc.array(fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'), {
        minLength: texts.length,
        maxLength: texts.length,
      }),
      bom: fc.boolean(),
      finalNewline: fc.boolean(),
    }),
  );

/** A temporary folder for one test file (removed after it), and `temp(text)`: a new file of `text`. */
export function tempLinesFiles(prefix: string): (text: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  return (text) => {
    const path = join(dir, `t${files++}.jsonl`);
    writeFileSync(path, text);
    return path;
  };
}
