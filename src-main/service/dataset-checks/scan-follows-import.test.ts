import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finishImport, insertDataset } from '../../store/datasets.ts';
import { leanRowInserter } from '../../store/datasets-rows.ts';
import { removeDataset } from '../datasets/remove.ts';
import { createHarness, type Harness } from '../datasets/testing/harness.ts';
import { scanDataset } from './sqlite.ts';
import { datasetScanner } from '../datasets/scanner.ts';

/**
 * A scan asked for while its dataset still imports reads the rows as they
 * are committed, whole slices at a time, and ends once the import has: what
 * it stores is the whole dataset's. A dataset whose import fails meanwhile
 * (its rows removed) ends the scan with nothing stored.
 */

const SLICE = 4;

function importing(h: Harness, id: string): (from: number, to: number) => void {
  insertDataset(h.db, { id, name: id, file_name: `${id}.jsonl`, format: 'jsonl', shape: 'text' });
  const insert = leanRowInserter(h.db, id);
  return (from, to) =>
    h.db.transaction(() => {
      for (let i = from; i < to; i++) {
        insert({
          row_index: i,
          source_row: i + 1,
          task_type: 'text',
          // Rows 0 and 9 the same text: a duplicate pair across what came before and after.
          original_json: JSON.stringify({ text: `Sentence number ${i % 9} of the import.` }),
          source_raw: null,
          source_path: null,
        });
      }
    })();
}

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  return done;
};

describe('a scan that follows an import', () => {
  it.each([
    ['on its worker', true],
    ['on the main thread', false],
  ])('reads the rows as they come and ends with the import (%s)', async (_, onDisk) => {
    const h = createHarness({ onDisk });
    const add = importing(h, 'ds_follow');
    add(0, 6);
    const scan = scanDataset(h.ctx, 'ds_follow', { workers: 2, sliceRows: SLICE });
    expect(await settled(scan)).toBe(false);
    add(6, 10);
    expect(await settled(scan)).toBe(false);
    finishImport(h.db, 'ds_follow', { row_count: 10, error_count: 0, task_types: ['text'] });
    await scan;
    const stored = h.db.prepare('SELECT scan_json FROM datasets').pluck().get() as string;
    expect((JSON.parse(stored) as { rows: number }).rows).toBe(10);
    const overview = await h.call('datasetOverview', { dataset_id: 'ds_follow' });
    expect(overview.rows).toBe(10);
    expect(overview.duplicate_groups.total).toBe(1);
  });

  it('ends with nothing stored when the import fails meanwhile', async () => {
    const h = createHarness({ onDisk: true });
    const add = importing(h, 'ds_gone');
    add(0, 6);
    const scan = scanDataset(h.ctx, 'ds_gone', { workers: 1, sliceRows: SLICE });
    expect(await settled(scan)).toBe(false);
    await removeDataset(h.db, 'ds_gone');
    await scan;
    expect(h.db.prepare('SELECT count(*) FROM datasets').pluck().get()).toBe(0);
  });
});

/** 1,500 text rows (three batches of an import), 100 of them copies of others. */
function texts(h: Harness): string {
  const path = join(h.dir, 'texts.jsonl');
  const lines = Array.from({ length: 1500 }, (_, i) =>
    JSON.stringify({ task_type: 'text', text: `Row ${i % 1400} of a file imported in batches.` }),
  );
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const importedAt = (h: Harness, id: string): number =>
  h.received.findIndex((event) => event.type === 'import' && event.done && event.dataset_id === id);

const scansOf = (h: Harness) =>
  h.received.flatMap((event) => (event.type === 'scan' ? [event] : []));

describe("an import's scan", () => {
  it('begins once the import returns on a machine without cores to spare', async () => {
    const h = createHarness({ onDisk: true });
    datasetScanner(h.ctx, () => undefined).followImports = false;
    const ds = await h.importFile(texts(h), 'sample');
    await h.scanned(ds.id);
    const scans = scansOf(h);
    expect(scans.map((event) => event.state)).toEqual(['running', 'done']);
    expect(h.received.indexOf(scans[0] as (typeof h.received)[number])).toBeGreaterThan(
      importedAt(h, ds.id),
    );
  });

  it('starts with its first rows and is not asked for again once it returns', async () => {
    const h = createHarness({ onDisk: true });
    // As on a machine with cores to spare, whatever this one has.
    datasetScanner(h.ctx, () => undefined).followImports = true;
    const ds = await h.importFile(texts(h), 'sample');
    await h.scanned(ds.id);
    const scans = scansOf(h);
    // One scan, begun before the import's end and done after it, of every row.
    expect(scans.map((event) => event.state)).toEqual(['running', 'done']);
    expect(h.received.indexOf(scans[0] as (typeof h.received)[number])).toBeLessThan(
      importedAt(h, ds.id),
    );
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.duplicate_groups.total).toBe(100);
  });
});
