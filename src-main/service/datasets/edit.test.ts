import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, dataset } from './testing/harness.ts';

/** A person's edit: stored as the row's candidate with its patch, re-audited, accepted by them. */

type Row = Record<string, unknown>;

describe('editRow', () => {
  it('re-audits the edit, keeps it as a pending candidate with its patch, and exports it once accepted', async () => {
    const h = createHarness();
    const rows = readFileSync(dataset('gsm8k_test_first300.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .slice(0, 5)
      .map((line) => JSON.parse(line) as Row);
    // Row 2's final answer is wrong: the engine flags it; a person corrects it.
    const right = String(rows[2]?.answer);
    const wrong = right.replace(/#### (\d+)$/, (_m, n: string) => `#### ${Number(n) + 1}`);
    rows[2] = {
      ...rows[2],
      answer: right.replace(/#### (\d+)$/, (_m, n: string) => `#### ${Number(n) + 1}`),
    };
    const path = join(h.dir, 'g.jsonl');
    writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const ds = await h.importFile(path, 'gsm8k');

    const before = await h.call('datasetRow', { dataset_id: ds.id, index: 2 });
    const edited = await h.call('editRow', {
      dataset_id: ds.id,
      index: 2,
      sample: { ...before.sample, answer: right },
    });
    expect(edited.audit?.passed).toBe(false);
    expect(edited.reaudit?.passed).toBe(true);
    expect(edited.fix).toMatchObject({ edited: true, flagged: false, attempts: 0 });
    expect(edited.fix?.changes).toEqual([
      { op: 'replace', path: '/answer', value: right, old: wrong, reason: 'edit' },
    ]);
    expect(edited.decision).toBeNull();
    expect(edited.fixed_sample?.answer).toBe(right);

    await h.call('decide', { dataset_id: ds.id, indices: [2], decision: 'accepted' });
    const [summary] = await h.call('listDatasets', {});
    expect(summary).toMatchObject({ failed: 0, accepted: 1 });
    const out = join(h.dir, 'out.jsonl');
    await h.call('exportDataset', { dataset_id: ds.id, format: 'jsonl', path: out });
    const exported = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
    expect(exported[2]?.answer).toBe(right);
    expect(exported.map((r) => r.question)).toEqual(rows.map((r) => r.question));
  });

  it('edits a row holding a key named __proto__, which stays a key of the exported row', async () => {
    const h = createHarness();
    const path = join(h.dir, 'proto.jsonl');
    const line = (text: string) =>
      `{"task_type":"text","text":"${text}","__proto__":{"src":"crawl"}}\n`;
    writeFileSync(path, line('A  double space.') + line('Fine.'));
    const ds = await h.importFile(path, 'sample');
    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 0 });
    await h.call('editRow', {
      dataset_id: ds.id,
      index: 0,
      sample: { ...row.sample, text: 'A single space.' },
    });
    await h.call('decide', { dataset_id: ds.id, indices: [0], decision: 'accepted' });
    const out = join(h.dir, 'proto-out.jsonl');
    await h.call('exportDataset', { dataset_id: ds.id, format: 'jsonl', path: out });
    expect(readFileSync(out, 'utf8')).toBe(line('A single space.') + line('Fine.'));
  });

  it('refuses an edit that changes the task type or breaks the sample, changing nothing', async () => {
    const h = createHarness();
    const ds = await h.importFile(dataset('gsm8k_test_first300.jsonl'), 'gsm8k');
    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 0 });
    await expect(
      h.call('editRow', { dataset_id: ds.id, index: 0, sample: { task_type: 'text', text: 'x' } }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(
      h.call('editRow', { dataset_id: ds.id, index: 0, sample: { ...row.sample, answer: 7 } }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await h.call('datasetRow', { dataset_id: ds.id, index: 0 })).fix).toBeNull();
  });

  it('marks an edited row as edited in the grid, apart from the rows the engine fixed', async () => {
    const h = createHarness();
    const path = join(h.dir, 't.jsonl');
    const texts = ['A  double space here.', 'Another  double space.', 'A third  double space.'];
    writeFileSync(path, texts.map((text) => JSON.stringify({ text })).join('\n') + '\n');
    const ds = await h.importFile(path, 'text');
    const run = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'refine', scope: { kind: 'all' } }),
    );
    expect(run.status).toBe('done');
    const grid = async () =>
      (
        await h.call('datasetRows', {
          dataset_id: ds.id,
          offset: 0,
          limit: 10,
          filter: {},
          sort: { column: 'index', direction: 'asc' },
        })
      ).rows.map(({ changed, edited, decision }) => ({ changed, edited, decision }));
    // The engine's fixes: changed, not edited.
    expect(await grid()).toEqual(
      texts.map(() => ({ changed: true, edited: false, decision: null })),
    );

    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 1 });
    await h.call('editRow', {
      dataset_id: ds.id,
      index: 1,
      sample: { ...row.sample, text: 'Written again by hand.' },
    });
    await h.call('decide', { dataset_id: ds.id, indices: [1], decision: 'accepted' });
    expect(await grid()).toEqual([
      { changed: true, edited: false, decision: null },
      { changed: true, edited: true, decision: 'accepted' },
      { changed: true, edited: false, decision: null },
    ]);
  });
});

describe('an edit of a metadata field', () => {
  it('goes out with the row once accepted, in JSONL and CSV; the other rows go out as they came', async () => {
    const h = createHarness();
    const lines = [
      '{"original":"The cafe was fine.","label":"ok","comment":"first"}',
      '{"original":"The tea was hot.","label":"ok","comment":"second"}',
      '{"original":"The bread was fresh.","label":"ok","comment":"third"}',
    ];
    const path = join(h.dir, 'notes.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const ds = await h.call('importDataset', {
      source: { path },
      name: 'notes',
      shape: 'custom',
      mapping: { task_type: 'text', fields: { text: 'original' } },
    });
    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 1 });
    expect(row.sample).toMatchObject({ label: 'ok', comment: 'second' });
    const edited = await h.call('editRow', {
      dataset_id: ds.id,
      index: 1,
      sample: { ...row.sample, label: 'EDITED LABEL', reviewer: 'ana' },
    });
    expect(edited.fix?.changes.map((change) => change.path)).toEqual(['/label', '/reviewer']);
    await h.call('decide', { dataset_id: ds.id, indices: [1], decision: 'accepted' });

    const jsonl = join(h.dir, 'out.jsonl');
    const result = await h.call('exportDataset', {
      dataset_id: ds.id,
      format: 'jsonl',
      path: jsonl,
    });
    expect(result.kept).toEqual([]);
    expect(readFileSync(jsonl, 'utf8').split('\n').filter(Boolean)).toEqual([
      lines[0],
      '{"original":"The tea was hot.","label":"EDITED LABEL","comment":"second","reviewer":"ana"}',
      lines[2],
    ]);
    const csv = join(h.dir, 'out.csv');
    await h.call('exportDataset', { dataset_id: ds.id, format: 'csv', path: csv });
    expect(readFileSync(csv, 'utf8')).toContain('The tea was hot.,EDITED LABEL,second,ana');
  });
});
