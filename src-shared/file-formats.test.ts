import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_EXTENSIONS,
  exportExtensionOf,
  FORMAT_BY_EXTENSION,
  formatLabelOf,
  isTsvName,
} from './file-formats.ts';

describe('file names and their formats', () => {
  it('says TSV for a .tsv in any case, and nothing else', () => {
    expect(['a.tsv', 'A.TSV', 'x.y.Tsv'].map(isTsvName)).toEqual([true, true, true]);
    expect(['a.csv', 'tsv', 'a.tsv.gz', 'a_tsv'].map(isTsvName)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('labels and exports a TSV source as TSV, other CSVs as CSV', () => {
    expect(formatLabelOf('csv', 'rows.TSV')).toBe('TSV');
    expect(formatLabelOf('csv', 'rows.csv')).toBe('CSV');
    expect(formatLabelOf('jsonl', 'rows.tsv')).toBe('JSONL');
    expect(exportExtensionOf('csv', 'rows.tsv')).toBe('tsv');
    expect(exportExtensionOf('csv', 'rows.csv')).toBe('csv');
    expect(exportExtensionOf('jsonl', 'rows.tsv')).toBe('jsonl');
  });

  it('offers the file picker every extension that is read, and only those', () => {
    expect(ACCEPTED_EXTENSIONS.split(',').sort()).toEqual(Object.keys(FORMAT_BY_EXTENSION).sort());
    expect(ACCEPTED_EXTENSIONS).toContain('.tsv');
  });
});
