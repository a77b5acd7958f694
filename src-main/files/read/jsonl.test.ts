import { describe, expect, it } from 'vitest';
import { jsonlRowsOf, readJsonl } from './jsonl.ts';
import { failure, tempFiles } from '../testing/files-test-kit.ts';

/**
 * `jsonlRowsOf`: whole lines of JSON Lines that start at any line of a file
 * (the file pass's slices; service/file-pass/slice-rows.test.ts holds that
 * they read as `readJsonl` reads the whole file).
 */

const temp = tempFiles('svc-jsonl-test-', '.jsonl');

describe('jsonlRowsOf', () => {
  it('numbers lines from the slice first, drops CR ends and skips blank lines', () => {
    expect(jsonlRowsOf('{"a":1}\r\n\n  \r\n[3]\n"x"', 7)).toEqual([
      { row: 7, value: { a: 1 }, raw: '{"a":1}' },
      { row: 10, error: 'expected a JSON object, got an array', raw: '[3]' },
      { row: 11, error: 'expected a JSON object, got a string', raw: '"x"' },
    ]);
  });

  it('drops the BOM of the file first line only', () => {
    expect(jsonlRowsOf('\ufeff{"a":1}\n', 1)).toEqual([
      { row: 1, value: { a: 1 }, raw: '{"a":1}' },
    ]);
    const [later] = jsonlRowsOf('\ufeff{"a":1}\n', 2);
    expect(later?.row).toBe(2);
    expect(later?.raw).toBe('\ufeff{"a":1}');
    expect(later && 'error' in later ? later.error : '').toMatch(/^invalid JSON/);
  });

  it('reads nothing of an empty slice or one of blank lines', () => {
    expect(jsonlRowsOf('', 1)).toEqual([]);
    expect(jsonlRowsOf('\n\r\n \n', 4)).toEqual([]);
  });

  it('leaves to readJsonl the rule on a file whose first lines are all unparsable', async () => {
    const text = 'nope\n[1]\n';
    const error = await failure(
      (async () => {
        for await (const row of readJsonl(temp(text))) expect(row).toBeDefined();
      })(),
    );
    expect(error.message).toMatch(/not JSON Lines/);
    expect(jsonlRowsOf(text, 1)).toHaveLength(2);
  });
});
