import { describe, expect, it } from 'vitest';
import { safeName } from './export.ts';

describe('safeName', () => {
  it('drops an extension of a format read, keeps any other, and makes the rest a file name', () => {
    expect(safeName('GSM8K test.JSONL')).toBe('GSM8K_test');
    expect(safeName('rows.tsv')).toBe('rows');
    expect(safeName('notes.txt')).toBe('notes.txt');
    expect(safeName('a/b: c.parquet')).toBe('a_b_c');
    expect(safeName('.jsonl')).toBe('.jsonl');
    expect(safeName('??')).toBe('_');
  });
});
