import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RowsPage, type GridRow, type RowFilter } from '../../../src-shared/owner/datasets.ts';
import { GridQueries, gridQueries } from './grid-queries.ts';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

/**
 * GSM8K's first 300 rows, every 10th from row 3 with a wrong final answer,
 * refined; in a database on disk, so the grid's pages come from its worker
 * thread (see grid-queries.ts).
 */
let h: Harness;
let id: string;

beforeAll(async () => {
  h = createHarness({ onDisk: true });
  const rows = readFileSync(dataset('gsm8k_test_first300.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { question: string; answer: string });
  const file = join(h.dir, 'gsm8k.jsonl');
  writeFileSync(
    file,
    rows
      .map((row, i) =>
        i % 10 === 3
          ? {
              ...row,
              answer: row.answer.replace(/#### (\d+)$/, (_m, n: string) => `#### ${Number(n) + 7}`),
            }
          : row,
      )
      .map((row) => JSON.stringify(row))
      .join('\n'),
  );
  id = (await h.importFile(file, 'gsm8k')).id;
  await h.finished(
    await h.call('startRun', { dataset_id: id, operation: 'refine', scope: { kind: 'all' } }),
  );
  // The dataset checks' verdicts (GSM8K's rows are the benchmark's: contamination) are written by
  // the scan in the background; the tests read rows twice and compare, so none may land between.
  await h.scanned(id);
  // An import, a refine and a scan on disk: 5-9 s on two cores shared with other test files.
}, 60_000);

const page = async (
  query: { offset?: number; limit?: number; filter?: RowFilter; sort?: GridRowSort } = {},
) =>
  RowsPage.parse(await h.call('datasetRows', { dataset_id: id, offset: 0, limit: 1000, ...query }));
type GridRowSort = {
  column: 'index' | 'task_type' | 'score' | 'status';
  direction: 'asc' | 'desc';
};

/** Every row, to check filters against. */
const all = async (): Promise<GridRow[]> => (await page()).rows;

describe('datasetRows', () => {
  it('pages in import order, read on the grid worker', async () => {
    const first = await page({ limit: 50 });
    expect(gridQueries(h.db).threaded).toBe(true);
    expect(first.total).toBe(300);
    expect(first.rows.map((r) => r.index)).toEqual([...Array(50).keys()]);
    const last = await page({ offset: 250, limit: 100 });
    expect(last.rows.map((r) => r.index)).toEqual([...Array(50).keys()].map((i) => 250 + i));
    expect((await page({ offset: 300, limit: 10 })).rows).toEqual([]);
    expect(first.rows[0]).toMatchObject({
      source_row: 1,
      task_type: 'question_answer',
      title: expect.stringMatching(/^Janet’s ducks lay 16 eggs/) as unknown,
      detail: expect.stringMatching(/#### 18$/) as unknown,
    });
  });

  it('filters on failed checks, flags, changes and unverified labels, counting with the same filter', async () => {
    const rows = await all();
    const expectations: [RowFilter, (row: GridRow) => boolean][] = [
      [{ failed_check: '*' }, (r) => r.passed === false],
      [{ failed_check: 'answer_correct' }, (r) => r.failed_checks.includes('answer_correct')],
      [{ flagged: true }, (r) => r.flagged],
      [{ flagged: false }, (r) => !r.flagged],
      [{ changed: true }, (r) => r.changed],
      [{ changed: false }, (r) => !r.changed],
      [{ unverified: true }, (r) => r.unverified],
      [{ decision: 'pending' }, (r) => r.changed && r.decision === null],
      [{ changed: true, flagged: true }, (r) => r.changed && r.flagged],
    ];
    for (const [filter, keep] of expectations) {
      const expected = rows.filter(keep).map((r) => r.index);
      const got = await page({ filter, limit: 7 });
      expect(got.total, JSON.stringify(filter)).toBe(expected.length);
      expect(got.rows.map((r) => r.index)).toEqual(expected.slice(0, 7));
    }
    const failed = await page({ filter: { failed_check: 'answer_correct' } });
    expect(failed.total).toBeGreaterThan(20);
    expect(failed.rows.every((r) => r.index % 10 === 3)).toBe(true);
    expect((await page({ filter: { failed_check: 'no_such_check' } })).total).toBe(0);
  });

  it('searches case-insensitively in the main and secondary text', async () => {
    const janet = await page({ filter: { search: 'JANET’S DUCKS' } });
    expect(janet.rows.map((r) => r.index)).toEqual([0]);
    const byAnswer = await page({ filter: { search: '#### 18' } });
    expect(byAnswer.rows.map((r) => r.index)).toContain(0);
    const combined = await page({ filter: { search: 'sheep', changed: true } });
    expect(combined.rows.every((r) => r.changed && /sheep/i.test(r.title + r.detail))).toBe(true);
    expect((await page({ filter: { search: 'zebra-unicorn' } })).total).toBe(0);
    // the row's text is searched, not its line as stored (keys, quotes)
    expect((await page({ filter: { search: '{"question":' } })).total).toBe(0);
  });

  it('answers a search from the trigram index once built, as from the rows', async () => {
    const searches: RowFilter[] = [
      { search: 'JANET’S DUCKS' },
      { search: '#### 18' },
      { search: 'sheep', changed: true },
      { search: 'eggs' },
      { search: 'zebra-unicorn' },
      { search: 'a"b' },
      { search: 'ab' },
    ];
    // each search alone and with a filter, paged deep and in both row orders
    const queries = searches.flatMap((filter) => [
      { filter },
      { filter, offset: 2, limit: 3 },
      { filter, offset: 1, limit: 4, sort: { column: 'index', direction: 'desc' } as const },
      { filter: { ...filter, changed: false }, offset: 1, limit: 5 },
    ]);
    const scanned = await Promise.all(queries.map((query) => page(query)));
    await gridQueries(h.db).whenIndexed(id);
    const indexed = await Promise.all(queries.map((query) => page(query)));
    expect(indexed).toEqual(scanned);
    // (the index may be complete before the first search: each page also agrees with the whole list)
    const indices = (result: RowsPage | undefined): number[] =>
      result?.rows.map((r) => r.index) ?? [];
    searches.forEach((_, i) => {
      const whole = indices(indexed[4 * i]);
      expect(indices(indexed[4 * i + 1])).toEqual(whole.slice(2, 5));
      expect(indices(indexed[4 * i + 2])).toEqual([...whole].reverse().slice(1, 5));
      expect(indexed[4 * i + 2]?.total).toBe(whole.length);
    });
    expect(scanned[4 * 3]?.total).toBeGreaterThan(5);
    expect(scanned[4 * 3 + 2]?.rows).toHaveLength(4);
  });

  it('tells a new worker’s caller of an index completed before it started', async () => {
    await gridQueries(h.db).whenIndexed(id);
    const fresh = new GridQueries(h.db);
    try {
      await fresh.whenIndexed(id); // times out if only indexes built by this worker were told
    } finally {
      await fresh.close();
    }
  });

  it('sorts by score, status, task type and index, both ways', async () => {
    const scoreAsc = (await page({ sort: { column: 'score', direction: 'asc' } })).rows;
    const scores = scoreAsc.map((r) => r.score ?? 2);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(scoreAsc[0]?.passed).toBe(false);
    const scoreDesc = (await page({ sort: { column: 'score', direction: 'desc' } })).rows;
    expect(scoreDesc.map((r) => r.index)).toEqual(scoreAsc.map((r) => r.index).reverse());

    const rank = (r: GridRow): number =>
      r.passed === false ? 0 : r.flagged ? 1 : r.passed === true ? 2 : 3;
    const status = (await page({ sort: { column: 'status', direction: 'asc' } })).rows;
    expect(status.map(rank)).toEqual(status.map(rank).sort((a, b) => a - b));
    expect(status[0]?.passed).toBe(false);

    const desc = await page({ limit: 3, sort: { column: 'index', direction: 'desc' } });
    expect(desc.rows.map((r) => r.index)).toEqual([299, 298, 297]);
    const byType = await page({ limit: 3, sort: { column: 'task_type', direction: 'asc' } });
    expect(byType.rows.map((r) => r.index)).toEqual([0, 1, 2]);

    // sorted and filtered, deep: the same rows as filtering the sorted list
    const filtered = await page({
      offset: 5,
      limit: 10,
      filter: { changed: true },
      sort: { column: 'score', direction: 'asc' },
    });
    expect(filtered.rows.map((r) => r.index)).toEqual(
      scoreAsc
        .filter((r) => r.changed)
        .slice(5, 15)
        .map((r) => r.index),
    );
  });

  it('answers not_found for an unknown dataset or row', async () => {
    await expect(
      h.call('datasetRows', { dataset_id: 'ds_nope', offset: 0, limit: 10 }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(h.call('datasetRow', { dataset_id: id, index: 300 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('counts a filter once per state of the database: a decision made meanwhile is counted', async () => {
    const dropped = async () => (await page({ filter: { decision: 'dropped' } })).total;
    expect(await dropped()).toBe(0);
    expect(await dropped()).toBe(0);
    await h.call('decide', { dataset_id: id, indices: [4, 5], decision: 'dropped' });
    expect(await dropped()).toBe(2);
    await h.call('decide', { dataset_id: id, indices: [4, 5], decision: 'restored' });
    expect(await dropped()).toBe(0);
  });
});

describe('datasetRows while an import commits rows', () => {
  it('counts and pages one state of the dataset: a page never holds more rows than its total', async () => {
    const g = createHarness({ onDisk: true });
    const file = join(g.dir, 'beta.jsonl');
    const lines = Array.from({ length: 30_000 }, (_, i) =>
      JSON.stringify({
        task_type: 'text',
        // Every 50th row holds the word searched: its count stays under a page.
        text: `row ${i}: ${i % 50 === 0 ? 'beta' : 'alpha'} ${'words '.repeat(20)}`,
      }),
    );
    writeFileSync(file, lines.join('\n') + '\n');
    const state = { importing: true };
    const imported = g.importFile(file, 'sample').finally(() => (state.importing = false));
    const pages: { total: number; rows: number }[] = [];
    // Asked as a grid asks while the import runs: its search counted, its first page read.
    while (state.importing) {
      const listed = await g.call('listDatasets', {});
      const datasetId = listed[0]?.id;
      if (datasetId === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        continue;
      }
      const found = await g.call('datasetRows', {
        dataset_id: datasetId,
        offset: 0,
        limit: 1000,
        filter: { search: 'beta' },
      });
      pages.push({ total: found.total, rows: found.rows.length });
    }
    await imported;
    expect(pages.length).toBeGreaterThan(3);
    for (const { total, rows } of pages) expect(rows).toBe(total);
  }, 60_000);
});

describe('datasetRows after a fix is accepted', () => {
  it('shows the text the export holds: the accepted fix’s, the original until then', async () => {
    const own = createHarness();
    const file = join(own.dir, 'texts.jsonl');
    const texts = ['The CafÃ© opened at noon.', 'Our CafÃ© closed at nine.'];
    writeFileSync(
      file,
      texts.map((text) => JSON.stringify({ task_type: 'text', text })).join('\n'),
    );
    const ds = await own.importFile(file, 'sample');
    await own.finished(
      await own.call('startRun', { dataset_id: ds.id, operation: 'fix', scope: { kind: 'all' } }),
    );
    const titles = async (): Promise<string[]> =>
      (await own.call('datasetRows', { dataset_id: ds.id, offset: 0, limit: 10 })).rows.map(
        (row) => row.title,
      );
    expect(await titles()).toEqual(texts);
    await own.call('decide', { dataset_id: ds.id, indices: [0], decision: 'accepted' });
    expect(await titles()).toEqual(['The Café opened at noon.', texts[1]]);
    await own.call('decide', { dataset_id: ds.id, indices: [0], decision: 'rejected' });
    expect(await titles()).toEqual(texts);
  });
});
