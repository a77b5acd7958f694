import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness } from './testing/harness.ts';

/**
 * A spreadsheet's semicolon-separated CSV and a TSV import as their columns
 * and export as they came (files/read/csv-delimiter.ts): before, the header
 * was read as one column and no row could be mapped.
 */
describe('CSV separated by tabs or semicolons', () => {
  const rows = [
    ['What is 1,5 + 1?', '#### 2,5'],
    ['Tom has 3 apples; he eats one. How many are left?', '#### 2'],
  ];

  it('a TSV imports as its columns, and its download is a .tsv written like it', async () => {
    const h = createHarness();
    const path = join(h.dir, 'math.tsv');
    const source = ['question\tanswer', ...rows.map((row) => row.join('\t'))].join('\n') + '\n';
    writeFileSync(path, source);
    const summary = await h.importFile(path, 'gsm8k', 'math');
    expect(summary).toMatchObject({ format: 'csv', rows: 2, errors: 0 });
    for (const [index, [question, answer]] of rows.entries()) {
      const row = await h.call('datasetRow', { dataset_id: summary.id, index });
      expect(row.original).toEqual({ question, answer });
    }

    const exported = await h.call('exportDataset', { dataset_id: summary.id, format: 'csv' });
    expect(exported.download_url).not.toBeNull();
    const download = [...h.downloads.values()].at(-1);
    expect(download?.fileName).toBe('math.clean.tsv');
    expect(readFileSync(download?.path ?? '', 'utf8')).toBe(source);
  });

  it('a semicolon CSV imports as its columns and exports byte for byte', async () => {
    const h = createHarness();
    const path = join(h.dir, 'math.csv');
    const source =
      ['question;answer', ...rows.map(([q, a]) => `"${q ?? ''}";${a ?? ''}`)].join('\r\n') + '\r\n';
    writeFileSync(path, source);
    const summary = await h.importFile(path, 'gsm8k', 'math');
    expect(summary).toMatchObject({ format: 'csv', rows: 2, errors: 0 });
    const out = join(h.dir, 'out.csv');
    await h.call('exportDataset', { dataset_id: summary.id, format: 'csv', path: out });
    expect(readFileSync(out, 'utf8')).toBe(source);
  });
});
