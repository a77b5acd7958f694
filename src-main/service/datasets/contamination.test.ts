import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

/**
 * The `contamination` check in the app: the scan after an import fails rows
 * holding GSM8K test items (the grid filters them, the Overview counts them
 * and shows the finding), the GSM8K test file imported as itself warns, and
 * a dataset marked as an evaluation set is looked for in the others' scans.
 */

type Row = Record<string, unknown>;
const rowsOf = (name: string): Row[] =>
  readFileSync(dataset(name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

/** CommonsenseQA's first 40 rows as text, GSM8K test rows 3 and 7 planted at 10 and 20. */
function withPlants(h: Harness): string {
  const gsm8k = rowsOf('gsm8k_test_first300.jsonl');
  const rows: Row[] = rowsOf('commonsenseqa_validation_first200.jsonl')
    .slice(0, 40)
    .map((row) => ({ task_type: 'text', text: String(row.question) }));
  const planted = (row: Row): Row => ({
    task_type: 'text',
    text: `Practice problem. ${String(row.question)}\n\nSolution: ${String(row.answer)}`,
  });
  rows.splice(10, 0, planted(gsm8k[3]!));
  rows.splice(20, 0, planted(gsm8k[7]!));
  const path = join(h.dir, 'train.jsonl');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

async function rowsWhere(h: Harness, id: string, filter: object): Promise<number[]> {
  const page = await h.call('datasetRows', { dataset_id: id, offset: 0, limit: 500, filter });
  return page.rows.map((r) => r.index);
}

describe('contamination in the app', () => {
  it('fails the rows holding benchmark items after an import; the Overview counts them', async () => {
    const h = createHarness();
    const ds = await h.importFile(withPlants(h), 'sample');
    await h.scanned(ds.id);
    expect(await rowsWhere(h, ds.id, { failed_check: 'contamination' })).toEqual([10, 20]);
    expect(await rowsWhere(h, ds.id, { issue_code: 'benchmark_overlap' })).toEqual([10, 20]);
    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 20 });
    const issue = row.audit?.checks.contamination?.issues[0];
    expect(issue).toMatchObject({
      code: 'benchmark_overlap',
      benchmark: 'gsm8k/test',
      benchmark_item: 7,
      path: '/text',
      severity: 'error',
    });
    const text = (row.sample as { text: string }).text;
    expect(text.slice(...issue!.span!)).toMatch(/^[A-Z]/);
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.checks.contamination).toEqual({ failed: 2, warned: 0 });
    expect(overview.findings).toContainEqual(
      expect.objectContaining({
        code: 'benchmark_contamination',
        benchmarks: [{ benchmark: 'gsm8k/test', kind: 'benchmark', rows: 2, items: 2 }],
      }),
    );
  });

  it('reads the GSM8K test file as the benchmark itself: its rows warn', async () => {
    const h = createHarness();
    const ds = await h.importFile(dataset('gsm8k_test_first300.jsonl'), 'gsm8k');
    await h.scanned(ds.id);
    expect(await rowsWhere(h, ds.id, { failed_check: 'contamination' })).toEqual([]);
    // Never audited, the row's review still says which item it holds (a warning).
    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 12 });
    expect(row.audit?.passed).toBe(true);
    expect(row.audit?.checks.contamination?.issues[0]).toMatchObject({
      severity: 'warning',
      benchmark: 'gsm8k/test',
      benchmark_item: 12,
    });
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.findings).toContainEqual(
      expect.objectContaining({ code: 'benchmark_dataset', benchmark: 'gsm8k/test', rows: 300 }),
    );
  });

  it('looks for the rows of a dataset marked as an evaluation set in the others', async () => {
    const h = createHarness();
    const csqa = rowsOf('commonsenseqa_validation_first200.jsonl');
    const evalPath = join(h.dir, 'heldout.jsonl');
    writeFileSync(
      evalPath,
      csqa
        .slice(100, 140)
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    const trainPath = join(h.dir, 'train.jsonl');
    writeFileSync(
      trainPath,
      [...csqa.slice(0, 30), csqa[125]!].map((r) => JSON.stringify(r)).join('\n') + '\n',
    );
    const heldout = await h.importFile(evalPath, 'commonsenseqa', 'heldout');
    const train = await h.importFile(trainPath, 'commonsenseqa', 'train');
    await h.scanned(heldout.id);
    await h.scanned(train.id);
    expect(await rowsWhere(h, train.id, { issue_code: 'split_overlap' })).toEqual([]);

    const marked = await h.call('setEvalSet', { dataset_id: heldout.id, eval_set: true });
    expect(marked.eval_set).toBe(true);
    await h.scanned(train.id);
    expect(await rowsWhere(h, train.id, { issue_code: 'split_overlap' })).toEqual([30]);
    const row = await h.call('datasetRow', { dataset_id: train.id, index: 30 });
    expect(row.audit?.checks.contamination?.issues[0]).toMatchObject({
      benchmark: 'heldout',
      benchmark_item: 25,
    });
    // The evaluation set is not looked for in itself.
    expect(await rowsWhere(h, heldout.id, { issue_code: 'split_overlap' })).toEqual([]);

    await h.call('setEvalSet', { dataset_id: heldout.id, eval_set: false });
    await h.scanned(train.id);
    expect(await rowsWhere(h, train.id, { issue_code: 'split_overlap' })).toEqual([]);
  });
});
