import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

/**
 * "Keep both (not a duplicate)": the pair is remembered, and every later
 * scan leaves the copy out of the group of the row it seemed to repeat;
 * other copies of the same row stay reported.
 */

/** CommonsenseQA's first 40 rows, then row 3 twice (rows 40 and 41) and row 7 once (row 42). */
function csqaWithCopies(h: Harness): string {
  const rows = readFileSync(dataset('commonsenseqa_validation_first200.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 40)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  rows.push({ ...rows[3], id: 'copy-a' }, { ...rows[3], id: 'copy-b' }, { ...rows[7], id: 'c' });
  const path = join(h.dir, 'csqa-copies.jsonl');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

async function failingDuplicates(h: Harness, id: string): Promise<number[]> {
  const page = await h.call('datasetRows', {
    dataset_id: id,
    offset: 0,
    limit: 100,
    filter: { failed_check: 'duplicates' },
  });
  return page.rows.map((r) => r.index);
}

describe('keep both (not a duplicate)', () => {
  it('the next scans leave the pair out; the other copies stay reported', async () => {
    const h = createHarness();
    const ds = await h.importFile(csqaWithCopies(h), 'commonsenseqa');
    await h.scanned(ds.id);
    expect(await failingDuplicates(h, ds.id)).toEqual([40, 41, 42]);

    await h.call('keepBoth', { dataset_id: ds.id, index: 40, duplicate_of: 3 });
    await h.call('keepBoth', { dataset_id: ds.id, index: 42, duplicate_of: 7 });
    await h.scanned(ds.id);
    expect(await failingDuplicates(h, ds.id)).toEqual([41]);
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.duplicate_groups.groups.map((g) => g.rows)).toEqual([[3, 41]]);
    expect(overview.checks.duplicates).toEqual({ failed: 1, warned: 0 });
    const kept = await h.call('datasetRow', { dataset_id: ds.id, index: 40 });
    expect(kept.audit?.checks.duplicates).toBeUndefined();

    // Remembered: a later scan (after a decision) still leaves the pair apart.
    await h.call('decide', { dataset_id: ds.id, indices: [41], decision: 'dropped' });
    await h.call('decide', { dataset_id: ds.id, indices: [41], decision: 'restored' });
    await h.scanned(ds.id);
    expect(await failingDuplicates(h, ds.id)).toEqual([41]);
  });

  it('names two rows of the dataset, not one twice', async () => {
    const h = createHarness();
    const ds = await h.importFile(csqaWithCopies(h), 'commonsenseqa');
    await expect(
      h.call('keepBoth', { dataset_id: ds.id, index: 3, duplicate_of: 3 }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(
      h.call('keepBoth', { dataset_id: ds.id, index: 3, duplicate_of: 999 }),
    ).rejects.toMatchObject({ code: 'not_found' });
    // Either order names the same pair.
    expect(await h.call('keepBoth', { dataset_id: ds.id, index: 3, duplicate_of: 40 })).toEqual({
      updated: 1,
    });
    await h.scanned(ds.id);
    expect(await failingDuplicates(h, ds.id)).toEqual([41, 42]);
  });
});
