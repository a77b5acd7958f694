import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRows } from '../../files/index.ts';
import { AppError } from '../../../src-shared/errors.ts';
import { writeExport } from './export.ts';
import { exportOffThread } from './export-thread.ts';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

type Row = Record<string, unknown>;

const load = (file: string): Row[] =>
  readFileSync(dataset(file), 'utf8')
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

const writeJsonl = (path: string, rows: readonly Row[]): string => {
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
};

/** CommonsenseQA's first 40 rows; row 2 with a duplicate choice labelled as the answer. */
function csqaWithDuplicate(h: Harness): { path: string; rows: Row[] } {
  const rows = load('commonsenseqa_validation_first200.jsonl').slice(0, 40);
  rows[2] = {
    ...rows[2],
    choices: {
      label: ['A', 'B', 'C', 'D', 'E'],
      text: ['doctor', 'bookstore', 'market', 'bookstore', 'mortuary'],
    },
    answerKey: 'D',
  };
  return { path: writeJsonl(join(h.dir, 'csqa.jsonl'), rows), rows };
}

async function refineAll(h: Harness, datasetId: string): Promise<void> {
  const run = await h.finished(
    await h.call('startRun', {
      dataset_id: datasetId,
      operation: 'refine',
      scope: { kind: 'all' },
    }),
  );
  expect(run.status).toBe('done');
}

describe('decide', () => {
  it('accepts by index only rows whose fix changed something', async () => {
    const h = createHarness();
    const { path } = csqaWithDuplicate(h);
    const ds = await h.importFile(path, 'commonsenseqa');
    await refineAll(h, ds.id);
    const changed = await h.call('datasetRows', {
      dataset_id: ds.id,
      offset: 0,
      limit: 100,
      filter: { changed: true },
    });
    expect(changed.rows.map((r) => r.index)).toContain(2);
    const unchanged = (
      await h.call('datasetRows', {
        dataset_id: ds.id,
        offset: 0,
        limit: 1,
        filter: { changed: false },
      })
    ).rows[0]!.index;
    expect(
      await h.call('decide', { dataset_id: ds.id, indices: [2, unchanged], decision: 'accepted' }),
    ).toEqual({ updated: 1 });
    expect((await h.call('datasetRow', { dataset_id: ds.id, index: 2 })).decision).toBe('accepted');
    expect(
      await h.call('decide', { dataset_id: ds.id, indices: [2], decision: 'rejected' }),
    ).toEqual({ updated: 1 });
    expect(await h.call('decide', { dataset_id: ds.id, indices: [2], decision: null })).toEqual({
      updated: 1,
    });
    await expect(
      h.call('decide', { dataset_id: ds.id, decision: 'accepted' }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    // A row past the end is named, and nothing is decided.
    await expect(
      h.call('decide', { dataset_id: ds.id, indices: [2, 40, 41], decision: 'dropped' }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: 'dataset "test" has 40 rows (0 to 39): no row 40, 41; nothing was decided',
    });
    expect((await h.call('datasetRow', { dataset_id: ds.id, index: 2 })).dropped).toBe(false);
  });

  it('decides in bulk for the rows of a filter; a new fix makes them pending again', async () => {
    const h = createHarness();
    // every 7th question carries HTML debris, which the fix strips
    const rows = load('gsm8k_test_first300.jsonl')
      .slice(0, 100)
      .map((row, i) =>
        i % 7 === 0 ? { ...row, question: `<b>${String(row.question)}</b>` } : row,
      );
    const ds = await h.importFile(writeJsonl(join(h.dir, 'g.jsonl'), rows), 'gsm8k');
    await refineAll(h, ds.id);
    const [before] = await h.call('listDatasets', {});
    expect(before!.changed).toBeGreaterThanOrEqual(15);
    // everything: only the changed rows take the decision
    const bulk = await h.call('decide', { dataset_id: ds.id, filter: {}, decision: 'accepted' });
    expect(bulk.updated).toBe(before!.changed);
    const accepted = await h.call('datasetRows', {
      dataset_id: ds.id,
      offset: 0,
      limit: 1000,
      filter: { decision: 'accepted' },
    });
    expect(accepted.total).toBe(before!.changed);
    expect((await h.call('listDatasets', {}))[0]?.accepted).toBe(before!.changed);
    // a filter narrows it: reject the changed rows a search finds
    const search = accepted.rows[0]!.title.slice(0, 12);
    const narrowed = await h.call('decide', {
      dataset_id: ds.id,
      filter: { search, changed: true },
      decision: 'rejected',
    });
    expect(narrowed.updated).toBeGreaterThanOrEqual(1);
    expect(narrowed.updated).toBeLessThan(bulk.updated);
    // refine again: every row it changes is pending again
    await refineAll(h, ds.id);
    const pending = await h.call('datasetRows', {
      dataset_id: ds.id,
      offset: 0,
      limit: 1,
      filter: { decision: 'pending' },
    });
    expect(pending.total).toBe(before!.changed);
    expect((await h.call('listDatasets', {}))[0]?.accepted).toBe(0);
  });
});

describe('decide, in bulk', () => {
  it('writes thousands of rows in short transactions with the event loop turning between them', async () => {
    // On a file, as the app runs: the rows are chosen on the grid's thread.
    const h = createHarness({ onDisk: true });
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      task_type: 'text',
      text: `row ${i} is ${i % 3 === 0 ? 'beta' : 'alpha'}`,
    }));
    const ds = await h.importFile(writeJsonl(join(h.dir, 'texts.jsonl'), rows), 'sample');
    await h.scanned(ds.id);
    // Each turn of the loop while the decision runs: one transaction held it 0.5-0.85 s at
    // 50,000 rows before; the first of the short ones is 64 rows, each next at most twice that.
    let turns = 0;
    let deciding = true;
    const count = (): void => {
      turns++;
      if (deciding) setImmediate(count);
    };
    setImmediate(count);
    const dropped = await h.call('decide', { dataset_id: ds.id, filter: {}, decision: 'dropped' });
    deciding = false;
    expect(dropped.updated).toBe(3000);
    expect(turns).toBeGreaterThanOrEqual(4);
    const page = { dataset_id: ds.id, offset: 0, limit: 1 };
    expect((await h.call('datasetRows', { ...page, filter: { decision: 'dropped' } })).total).toBe(
      3000,
    );
    // Both: the listed rows that match the filter (rows 0, 3, 6 and 9 of the first ten).
    const listed = Array.from({ length: 10 }, (_, i) => i);
    const restored = await h.call('decide', {
      dataset_id: ds.id,
      indices: [...listed].reverse(),
      filter: { search: 'beta' },
      decision: 'restored',
    });
    expect(restored.updated).toBe(4);
    const kept = await h.call('datasetRows', { ...page, limit: 10, filter: {} });
    expect(kept.rows.filter((row) => !row.dropped).map((row) => row.index)).toEqual([0, 3, 6, 9]);
    // A listed row past the end is refused, not passed over.
    await expect(
      h.call('decide', { dataset_id: ds.id, indices: [5000], decision: 'restored' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  }, 60_000);
});

describe('exportDataset', () => {
  it('writes an untouched JSON Lines dataset back with the same rows, byte for byte', async () => {
    const h = createHarness();
    for (const file of ['gsm8k_test_first300.jsonl', 'oasst_en_100_trees.jsonl']) {
      const originals = load(file);
      const ds = await h.importFile(dataset(file), file.startsWith('gsm8k') ? 'gsm8k' : 'oasst');
      const out = join(h.dir, `out-${file}`);
      const result = await h.call('exportDataset', {
        dataset_id: ds.id,
        format: 'jsonl',
        path: out,
      });
      // The source's own lines (Python-style spacing, \u escapes), not our re-serialisation.
      const expected = readFileSync(dataset(file), 'utf8');
      expect(readFileSync(out, 'utf8')).toBe(expected);
      expect(result).toEqual({
        rows: originals.length,
        kept: [],
        kept_rows: 0,
        bytes: Buffer.byteLength(expected),
        path: out,
        download_url: null,
      });
    }
  });

  it('writes CSV, Parquet and JSON that read back as the original rows', async () => {
    const h = createHarness();
    const originals = load('commonsenseqa_validation_first200.jsonl');
    const ds = await h.importFile(
      dataset('commonsenseqa_validation_first200.jsonl'),
      'commonsenseqa',
    );
    for (const format of ['csv', 'parquet', 'json'] as const) {
      const out = join(h.dir, `csqa.${format}`);
      const result = await h.call('exportDataset', { dataset_id: ds.id, format, path: out });
      expect(result.rows).toBe(200);
      expect(await readBack(out)).toEqual(originals);
    }
  });

  it('applies accepted fixes in the original schema and leaves the rest as imported', async () => {
    const h = createHarness();
    const { path, rows } = csqaWithDuplicate(h);
    const ds = await h.importFile(path, 'commonsenseqa');
    await refineAll(h, ds.id);
    await h.call('decide', { dataset_id: ds.id, indices: [2], decision: 'accepted' });
    for (const format of ['jsonl', 'csv', 'parquet'] as const) {
      const out = join(h.dir, `fixed.${format}`);
      await h.call('exportDataset', { dataset_id: ds.id, format, path: out });
      const back = await readBack(out);
      expect(back[2]).toEqual({
        ...rows[2],
        choices: {
          label: ['A', 'B', 'C', 'D'],
          text: ['doctor', 'bookstore', 'market', 'mortuary'],
        },
        answerKey: 'B',
      });
      expect(Object.keys(back[2]!)).toEqual(Object.keys(rows[2]!));
      // changed but not accepted: as imported
      expect(back.filter((_, i) => i !== 2)).toEqual(rows.filter((_, i) => i !== 2));
    }
  });

  it('adds verdict columns and drops flagged rows on request', async () => {
    const h = createHarness();
    const rows = load('gsm8k_test_first300.jsonl')
      .slice(0, 60)
      .map((row, i) =>
        // text lost to a replacement character: reported, not repairable, so flagged
        i % 10 === 3 ? { ...row, question: String(row.question).replace(' ', ' \uFFFD ') } : row,
      );
    const ds = await h.importFile(writeJsonl(join(h.dir, 'g.jsonl'), rows), 'gsm8k');
    await refineAll(h, ds.id);
    await h.call('decide', { dataset_id: ds.id, filter: {}, decision: 'accepted' });
    const [summary] = await h.call('listDatasets', {});
    expect(summary!.flagged).toBeGreaterThan(0);

    const out = join(h.dir, 'verdicts.jsonl');
    await h.call('exportDataset', {
      dataset_id: ds.id,
      format: 'jsonl',
      include_verdicts: true,
      path: out,
    });
    const back = await readBack(out);
    expect(back).toHaveLength(60);
    expect(back[3]).toMatchObject({
      svc_passed: false,
      svc_failed_checks: expect.stringContaining('encoding') as unknown,
      svc_flagged: true,
    });
    expect(Object.keys(back[0]!)).toEqual([
      'question',
      'answer',
      'svc_passed',
      'svc_failed_checks',
      'svc_flagged',
      'svc_decision',
    ]);
    expect(back.filter((row) => row.svc_decision === 'accepted')).toHaveLength(summary!.accepted);

    const dropped = join(h.dir, 'dropped.csv');
    const result = await h.call('exportDataset', {
      dataset_id: ds.id,
      format: 'csv',
      drop_flagged: true,
      path: dropped,
    });
    expect(result.rows).toBe(60 - summary!.flagged);
    const kept = await readBack(dropped);
    expect(kept.some((row) => String(row.question) === String(rows[3]!.question))).toBe(false);
  });

  it('on a database file, writes on a thread of its own what it would write here, from its own connection', async () => {
    const h = createHarness({ onDisk: true });
    const { path } = csqaWithDuplicate(h);
    const ds = await h.importFile(path, 'commonsenseqa');
    await refineAll(h, ds.id);
    await h.call('decide', { dataset_id: ds.id, indices: [2], decision: 'accepted' });
    for (const format of ['jsonl', 'csv', 'parquet'] as const) {
      const there = join(h.dir, `there.${format}`);
      const here = join(h.dir, `here.${format}`);
      const result = await h.call('exportDataset', { dataset_id: ds.id, format, path: there });
      const job = { datasetId: ds.id, format, includeVerdicts: false, dropFlagged: false };
      const written = await writeExport(h.db, { ...job, path: here });
      expect(readFileSync(there)).toEqual(readFileSync(here));
      expect(result).toMatchObject({
        rows: written.rows,
        bytes: written.bytes,
        kept: written.kept,
      });
    }
    // Its own connection: what this one has not committed is not in the file. (The scans the
    // decision asked for are over first: they write on this connection, never inside another's
    // transaction.)
    await h.scanned(ds.id);
    const original = JSON.stringify(await readBack(join(h.dir, 'here.jsonl')));
    h.db.exec('BEGIN');
    try {
      h.db.prepare('UPDATE dataset_rows SET decision = NULL WHERE dataset_id = ?').run(ds.id);
      const during = join(h.dir, 'during.jsonl');
      await h.call('exportDataset', { dataset_id: ds.id, format: 'jsonl', path: during });
      expect(JSON.stringify(await readBack(during))).toBe(original);
    } finally {
      h.db.exec('ROLLBACK');
    }
    // Its errors are those of an export here. (exportDataset names a missing folder before either
    // starts: export-target.test.ts; the thread is asked directly here.)
    const nowhere = join(h.dir, 'no such folder', 'out.jsonl');
    const job = { datasetId: ds.id, format: 'jsonl' as const, includeVerdicts: false };
    const failure = exportOffThread(h.db, { ...job, dropFlagged: false, path: nowhere });
    await expect(failure).rejects.toBeInstanceOf(AppError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid_request' });
    const here = writeExport(h.db, { ...job, dropFlagged: false, path: nowhere });
    const [a, b] = await Promise.allSettled([failure, here]);
    expect(((a as PromiseRejectedResult).reason as Error).message).toBe(
      ((b as PromiseRejectedResult).reason as Error).message,
    );
  }, 60_000);

  it('writes into the temporary folder and registers a download without a path', async () => {
    const h = createHarness();
    const ds = await h.importFile(
      dataset('gsm8k_test_first300.jsonl'),
      'gsm8k',
      'GSM8K test.jsonl',
    );
    const result = await h.call('exportDataset', { dataset_id: ds.id, format: 'parquet' });
    expect(result).toMatchObject({ rows: 300, path: null, download_url: '/owner-download/t0' });
    const download = h.downloads.get('t0')!;
    expect(download.fileName).toBe('GSM8K_test.clean.parquet');
    expect(download.path.startsWith(h.dir)).toBe(true);
    expect(existsSync(download.path)).toBe(true);
  });
});
