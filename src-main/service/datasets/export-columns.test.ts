import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRows } from '../../files/index.ts';
import { gridQueries } from './grid-queries.ts';
import { createHarness, dataset } from './testing/harness.ts';

type Row = Record<string, unknown>;

/**
 * ftfy's cases: every row has `label`, `original`, `fixed`, `expect`; only
 * some have `comment` or `fixed-encoding`. A CSV or Parquet export has one set
 * of columns, so it adds those to the other rows, and says so beforehand;
 * JSON and JSON Lines keep each row's own keys.
 */
const FILE = 'ftfy_mojibake_cases.jsonl';
const originals = (): Row[] =>
  readFileSync(dataset(FILE), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

async function readBack(path: string): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const result of readRows(path)) {
    if (!('value' in result)) throw new Error(`row ${result.row}: ${result.error}`);
    rows.push(result.value);
  }
  return rows;
}

describe('the columns an export adds', () => {
  it('names the keys only some rows hold; JSON and JSON Lines never add them, CSV and Parquet do', async () => {
    const h = createHarness();
    const rows = originals();
    const holding = (key: string): number => rows.filter((row) => key in row).length;
    const ds = await h.call('importDataset', {
      source: { path: dataset(FILE) },
      name: 'ftfy',
      shape: 'custom',
      mapping: { task_type: 'text', fields: { text: 'original' } },
    });

    const columns = await h.call('exportColumns', { dataset_id: ds.id });
    expect(columns).toEqual({
      rows: rows.length,
      added: [
        { column: 'comment', rows: holding('comment') },
        { column: 'fixed-encoding', rows: holding('fixed-encoding') },
      ],
    });
    expect(holding('comment')).toBeLessThan(rows.length);

    for (const format of ['jsonl', 'json'] as const) {
      const out = join(h.dir, `ftfy.${format}`);
      await h.call('exportDataset', { dataset_id: ds.id, format, path: out });
      const back = await readBack(out);
      expect(
        back.map((row) => Object.keys(row)),
        format,
      ).toEqual(rows.map((row) => Object.keys(row)));
    }
    for (const format of ['csv', 'parquet'] as const) {
      const out = join(h.dir, `ftfy.${format}`);
      await h.call('exportDataset', { dataset_id: ds.id, format, path: out });
      const back = await readBack(out);
      // every row has every column: the added ones too, as said
      for (const row of back)
        expect(Object.keys(row)).toEqual(expect.arrayContaining(['comment', 'fixed-encoding']));
    }

    // Dropped rows are not exported: with every row lacking a comment dropped, none is added.
    const lacking = rows.flatMap((row, i) => ('comment' in row ? [] : [i]));
    await h.call('decide', { dataset_id: ds.id, indices: lacking, decision: 'dropped' });
    const kept = rows.filter((row) => 'comment' in row);
    const after = await h.call('exportColumns', { dataset_id: ds.id });
    expect(after.rows).toBe(kept.length);
    expect(after.added.map((a) => a.column)).not.toContain('comment');
  });

  it('names a key an accepted edit adds, as the CSV export then writes it, from the grid worker', async () => {
    const h = createHarness({ onDisk: true });
    const ds = await h.importFile(
      dataset('commonsenseqa_validation_first200.jsonl'),
      'commonsenseqa',
    );
    const rows = ds.rows;
    const { sample } = await h.call('datasetRow', { dataset_id: ds.id, index: 3 });
    await h.call('editRow', {
      dataset_id: ds.id,
      index: 3,
      sample: { ...sample, note: 'checked by hand' },
    });
    // Not accepted yet: the export would not write it.
    expect(await h.call('exportColumns', { dataset_id: ds.id })).toEqual({ rows, added: [] });
    await h.call('decide', { dataset_id: ds.id, indices: [3], decision: 'accepted' });
    expect(await h.call('exportColumns', { dataset_id: ds.id })).toEqual({
      rows,
      added: [{ column: 'note', rows: 1 }],
    });
    expect(gridQueries(h.db).threaded).toBe(true);
    const out = join(h.dir, 'csqa.csv');
    await h.call('exportDataset', { dataset_id: ds.id, format: 'csv', path: out });
    const back = await readBack(out);
    expect(back.filter((row) => row.note === 'checked by hand')).toHaveLength(1);
    expect(back.every((row) => 'note' in row)).toBe(true);
    await gridQueries(h.db).close();
  });

  it('adds none for rows that all hold the same keys', async () => {
    const h = createHarness();
    const ds = await h.importFile(dataset('gsm8k_test_first300.jsonl'), 'gsm8k');
    expect(await h.call('exportColumns', { dataset_id: ds.id })).toEqual({ rows: 300, added: [] });
  });
});
