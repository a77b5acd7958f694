import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, dataset, type Harness } from './testing/harness.ts';
import { sampleKey, storedSignatures } from '../../store/signature-cache.ts';

/**
 * The app's dataset checks: after an import, a run or decisions, a scan of
 * the whole dataset finds duplicates (verdicts on the rows, groups, the grid's
 * filters), statistics and findings for the Overview; dropping the later
 * copies leaves them out of the export, and a rescan hashes only rows whose
 * sample changed.
 */

type Row = Record<string, unknown>;
const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter(Boolean);

/** CommonsenseQA's first 60 rows; row 3 again at 30 (choices reordered), row 7 at 45 shouted. */
function csqaWithCopies(h: Harness): string {
  const rows = lines(dataset('commonsenseqa_validation_first200.jsonl'))
    .slice(0, 60)
    .map((line) => JSON.parse(line) as Row);
  const three = rows[3] as { choices: { label: string[]; text: string[] }; answerKey: string };
  const reordered = {
    ...three,
    id: 'copy-of-3',
    choices: { label: three.choices.label, text: [...three.choices.text].reverse() },
    answerKey: three.choices.label[4 - three.choices.label.indexOf(three.answerKey)],
  };
  rows.splice(30, 0, reordered);
  rows.splice(45, 0, {
    ...rows[7],
    id: 'copy-of-7',
    question: String(rows[7]?.question).toUpperCase(),
  });
  const path = join(h.dir, 'csqa.jsonl');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

async function rowsWhere(h: Harness, id: string, filter: object): Promise<number[]> {
  const page = await h.call('datasetRows', { dataset_id: id, offset: 0, limit: 500, filter });
  return page.rows.map((r) => r.index);
}

describe('dataset checks in the app', () => {
  it("names a finding's example rows by the dataset's rows, dropped rows left out of the scan", async () => {
    const h = createHarness();
    // Three copies of GSM8K's first five questions, each tagged: template siblings.
    const five = lines(dataset('gsm8k_test_first300.jsonl')).slice(0, 5);
    const rows = [0, 300, 600].flatMap((base) =>
      five.map((line, i) => {
        const row = JSON.parse(line) as { question: string; answer: string };
        return JSON.stringify({ ...row, question: `[${base + i}] ${row.question}` });
      }),
    );
    const path = join(h.dir, 'templated.jsonl');
    writeFileSync(path, rows.join('\n') + '\n');
    const ds = await h.importFile(path, 'gsm8k');
    await h.scanned(ds.id);
    await h.call('decide', { dataset_id: ds.id, indices: [0, 2], decision: 'dropped' });
    await h.scanned(ds.id);
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    const finding = overview.findings.find((f) => f.code === 'templated_rows') as
      { message: string; examples: { rows: number[] }[] } | undefined;
    expect(finding?.examples.length).toBeGreaterThan(0);
    for (const example of finding?.examples ?? []) {
      // Neither is a dropped row, both are siblings (i and i + 5k), and the message names them.
      expect(example.rows.filter((row) => row === 0 || row === 2)).toEqual([]);
      const [a = -1, b = -1] = example.rows;
      expect((b - a) % 5).toBe(0);
      expect(finding?.message).toContain(`row ${a + 1} and row ${b + 1}`);
    }
  });

  it('finds the copies after an import, before any run, and lists them in the Overview', async () => {
    const h = createHarness();
    const ds = await h.importFile(csqaWithCopies(h), 'commonsenseqa');
    await h.scanned(ds.id);
    expect(await rowsWhere(h, ds.id, { repeats: true })).toEqual([30, 45]);
    expect(await rowsWhere(h, ds.id, { failed_check: 'duplicates' })).toEqual([30, 45]);
    expect(await rowsWhere(h, ds.id, { issue_code: 'exact_duplicate' })).toEqual([30, 45]);
    const copy = await h.call('datasetRow', { dataset_id: ds.id, index: 30 });
    expect(copy.audit?.checks.duplicates?.issues[0]).toMatchObject({
      code: 'exact_duplicate',
      ref: 3,
    });
    expect(copy.audit?.checks.duplicates?.issues[0]?.message).toContain('row 4');

    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.rows).toBe(62);
    expect(overview.scan?.statistics.samples).toBe(62);
    expect(overview.checks.duplicates).toEqual({ failed: 2, warned: 0 });
    expect(overview.issues.exact_duplicate).toEqual({ failed: 2, warned: 0 });
    expect(overview.duplicate_groups).toEqual({
      total: 2,
      groups: [
        {
          kind: 'exact',
          rows: [3, 30],
          similarity: 1,
          label_conflict: false,
          source_rows: [4, 31],
        },
        {
          kind: 'exact',
          rows: [7, 45],
          similarity: 1,
          label_conflict: false,
          source_rows: [8, 46],
        },
      ],
    });
    expect(overview.findings.map((f) => f.code)).toContain('duplicates');
  });

  it("writes a large scan's verdicts a slice at a time, so the server answers meanwhile", async () => {
    const h = createHarness();
    // 6,000 rows, 300 questions each 20 times: 5,700 rows fail `duplicates`.
    const base = lines(dataset('gsm8k_test_first300.jsonl'));
    const path = join(h.dir, 'repeated.jsonl');
    writeFileSync(path, Array.from({ length: 20 }, () => base.join('\n')).join('\n') + '\n');
    const ds = await h.importFile(path, 'gsm8k');
    const failing = h.db.prepare(
      `SELECT count(*) FROM dataset_row_checks
         WHERE dataset_id = ? AND json_extract(checks_json, '$.duplicates') IS NOT NULL`,
    );
    // What another request would see at each turn of the event loop while the scan goes on.
    const seen = new Set<number>();
    const scan = { done: false };
    const scanned = h.scanned(ds.id).then(() => (scan.done = true));
    while (!scan.done) {
      seen.add(failing.pluck().get(ds.id) as number);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await scanned;
    expect(failing.pluck().get(ds.id)).toBe(5700);
    // Verdicts in part: the writes were not one transaction holding the thread to the end.
    expect([...seen].some((count) => count > 0 && count < 5700)).toBe(true);
  });

  it('keeps the verdict through an audit, and counts warnings apart', async () => {
    const h = createHarness();
    const ds = await h.importFile(csqaWithCopies(h), 'commonsenseqa');
    const run = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'audit', scope: { kind: 'all' } }),
    );
    expect(run.status).toBe('done');
    await h.scanned(ds.id);
    const copy = await h.call('datasetRow', { dataset_id: ds.id, index: 45 });
    expect(copy.audit?.checks.duplicates?.passed).toBe(false);
    expect(copy.audit?.passed).toBe(false);
    expect(await rowsWhere(h, ds.id, { failed_check: '*' })).toEqual(
      expect.arrayContaining([30, 45]),
    );
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    const warnedRows = await rowsWhere(h, ds.id, { warned: true });
    const warnedCodes = Object.values(overview.issues).reduce((n, t) => n + t.warned, 0);
    expect(warnedCodes).toBeGreaterThanOrEqual(warnedRows.length > 0 ? 1 : 0);
    for (const [code, tally] of Object.entries(overview.issues)) {
      if (tally.warned === 0) continue;
      const rows = await rowsWhere(h, ds.id, { issue_code: code, severity: 'warning' });
      expect(rows.length, code).toBeGreaterThanOrEqual(tally.warned);
    }
  });

  it('drops the later copies: left out of the export, the group gone after the rescan, undoable', async () => {
    const h = createHarness();
    const path = csqaWithCopies(h);
    const ds = await h.importFile(path, 'commonsenseqa');
    await h.scanned(ds.id);
    const dropped = await h.call('decide', {
      dataset_id: ds.id,
      filter: { repeats: true },
      decision: 'dropped',
    });
    expect(dropped.updated).toBe(2);
    expect(await rowsWhere(h, ds.id, { decision: 'dropped' })).toEqual([30, 45]);
    const out = join(h.dir, 'clean.jsonl');
    const exported = await h.call('exportDataset', {
      dataset_id: ds.id,
      format: 'jsonl',
      path: out,
    });
    expect(exported.rows).toBe(60);
    const source = lines(path);
    expect(lines(out)).toEqual(source.filter((_, i) => i !== 30 && i !== 45));

    await h.scanned(ds.id);
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.rows).toBe(60);
    expect(overview.duplicate_groups.total).toBe(0);
    expect(await rowsWhere(h, ds.id, { repeats: true })).toEqual([]);

    await h.call('decide', { dataset_id: ds.id, indices: [30], decision: 'restored' });
    await h.scanned(ds.id);
    expect(await rowsWhere(h, ds.id, { repeats: true })).toEqual([30]);
    expect((await h.call('datasetRow', { dataset_id: ds.id, index: 45 })).dropped).toBe(true);
  });

  it("writes every block of a scan's verdicts, each block's issues asked for ahead", async () => {
    const h = createHarness({ onDisk: true });
    // 500 distinct texts, then each again: rows 500-999 fail `duplicates`, written in two blocks.
    const texts = Array.from(
      { length: 500 },
      (_, i) => `Note ${i}: the ${['red', 'green', 'blue'][i % 3]} box holds ${i * 7} marbles.`,
    );
    const path = join(h.dir, 'twice.jsonl');
    const rows = [...texts, ...texts].map((text) => JSON.stringify({ task_type: 'text', text }));
    writeFileSync(path, rows.join('\n') + '\n');
    const ds = await h.importFile(path, 'sample');
    await h.scanned(ds.id);
    const failing = await rowsWhere(h, ds.id, { failed_check: 'duplicates' });
    expect(failing).toEqual(Array.from({ length: 500 }, (_, i) => 500 + i));
    const last = await h.call('datasetRow', { dataset_id: ds.id, index: 999 });
    expect(last.audit?.checks.duplicates?.issues[0]?.ref).toBe(499);
  });

  it('rewrites an issue that moved while the verdict stayed (the write of the checks alone)', async () => {
    const h = createHarness();
    const text = 'The mitochondria is the powerhouse of the cell, and it makes most of its energy.';
    const rows = [
      { task_type: 'text', text },
      { task_type: 'text', text: 'Water boils at one hundred degrees at sea level.' },
      { task_type: 'text', text },
      { task_type: 'text', text },
    ];
    const path = join(h.dir, 'copies.jsonl');
    writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
    const ds = await h.importFile(path, 'sample');
    await h.scanned(ds.id);
    const copyOf = async (index: number): Promise<unknown> =>
      (await h.call('datasetRow', { dataset_id: ds.id, index })).audit?.checks.duplicates?.issues[0]
        ?.ref;
    expect(await copyOf(3)).toBe(0);
    expect(await rowsWhere(h, ds.id, { failed_check: 'duplicates' })).toEqual([2, 3]);

    // Row 0 dropped: row 2 is the first copy now, and row 3 still fails, as a copy of row 2.
    await h.call('decide', { dataset_id: ds.id, indices: [0], decision: 'dropped' });
    await h.scanned(ds.id);
    expect(await copyOf(3)).toBe(2);
    expect(await copyOf(2)).toBeUndefined();
    expect(await rowsWhere(h, ds.id, { failed_check: 'duplicates' })).toEqual([3]);
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.checks.duplicates).toEqual({ failed: 1, warned: 0 });
  });

  it('rehashes only rows whose sample changed', async () => {
    const h = createHarness();
    const ds = await h.importFile(csqaWithCopies(h), 'commonsenseqa');
    await h.scanned(ds.id);
    // Rows with a signature kept of their sample in force.
    const hashed = (): number => {
      const kept = storedSignatures(h.db, ds.id, -1, Number.MAX_SAFE_INTEGER);
      const rows = h.db
        .prepare('SELECT row_index, decision, fixed_json FROM dataset_rows WHERE dataset_id = ?')
        .all(ds.id) as { row_index: number; decision: null; fixed_json: string | null }[];
      return rows.filter((row) => kept.get(row.row_index)?.key === sampleKey(row)).length;
    };
    expect(hashed()).toBe(62);
    const row5 = await h.call('datasetRow', { dataset_id: ds.id, index: 5 });
    h.db
      .prepare(
        `UPDATE dataset_rows SET fixed_json = ?, changed = 1 WHERE dataset_id = ? AND row_index = 5`,
      )
      .run(JSON.stringify(row5.sample), ds.id);
    await h.call('decide', { dataset_id: ds.id, indices: [5], decision: 'accepted' });
    expect(hashed()).toBe(61);
    await h.scanned(ds.id);
    expect(hashed()).toBe(62);
  });

  it("reports TruthfulQA's answers all at option A in the Overview", async () => {
    const h = createHarness();
    const ds = await h.importFile(dataset('truthfulqa_mc_task_first200.jsonl'), 'truthfulqa_mc');
    await h.scanned(ds.id);
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.scan?.statistics.answer_position?.counts[0]).toBe(200);
    expect(overview.findings.find((f) => f.code === 'answer_position_skew')?.message).toMatch(
      /^option A is right in 200 of 200 items/,
    );
  });
});
