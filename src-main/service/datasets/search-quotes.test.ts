import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RowsPage } from '../../../src-shared/owner/datasets.ts';
import { gridQueries } from './grid-queries.ts';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

/**
 * A search finds a word whichever apostrophe or quote it was written with:
 * GSM8K writes `Janet’s` (21 of its first 300 rows hold U+2019) and other
 * rows `Tom's`; a person types either. Scanned and indexed alike.
 */

const GSM8K = dataset('gsm8k_test_first300.jsonl');
let h: Harness;
let id: string;

/** Each row's question and answer, lowercased, as the file has them. */
const texts = readFileSync(GSM8K, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const row = JSON.parse(line) as { question: string; answer: string };
    return `${row.question}\n${row.answer}`.toLowerCase();
  });
const rowsMatching = (pattern: RegExp): number[] =>
  texts.flatMap((text, i) => (pattern.test(text) ? [i] : []));

beforeAll(async () => {
  h = createHarness({ onDisk: true });
  id = (await h.importFile(GSM8K, 'gsm8k')).id;
});

const found = async (search: string): Promise<number[]> =>
  RowsPage.parse(
    await h.call('datasetRows', { dataset_id: id, offset: 0, limit: 1000, filter: { search } }),
  ).rows.map((r) => r.index);

describe('a search and typographic quotes', () => {
  it('finds a word written with either apostrophe, whichever one is searched', async () => {
    const janet = rowsMatching(/janet['’]s/);
    const possessive = rowsMatching(/['’]s /);
    // Both kinds are in the file, so the searches below can fail either way.
    expect(rowsMatching(/’s /).length).toBeGreaterThan(0);
    expect(rowsMatching(/'s /).length).toBeGreaterThan(0);
    expect(janet).toContain(0);
    const searches: [string, number[]][] = [
      ["Janet's", janet],
      ['JANET’S', janet],
      ["'s ", possessive],
      ['’s ', possessive],
      ['‘s ', possessive],
    ];
    const scanned = await Promise.all(searches.map(([search]) => found(search)));
    await gridQueries(h.db).whenIndexed(id);
    const indexed = await Promise.all(searches.map(([search]) => found(search)));
    searches.forEach(([search, expected], i) => {
      expect(scanned[i], `scanned: ${search}`).toEqual(expected);
      expect(indexed[i], `indexed: ${search}`).toEqual(expected);
    });
  });
});
