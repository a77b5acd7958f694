import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { usageOfRun } from '../../store/owner-usage.ts';
import { historyRows, type HistoryRow } from '../../store/history.ts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import { OwnerEvent } from '../../../src-shared/owner-api.ts';
import { RunRequest, RunStatus } from '../../../src-shared/owner/runs.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { openDatabase } from '../../store/db.ts';
import { finishImport, insertDataset } from '../../store/datasets.ts';
import { insertRun, runRecord } from '../../store/datasets-runs.ts';
import { balances, charge, OWNER_ACCOUNT_ID } from '../billing/billing.ts';
import { estimateRun } from './estimate-run.ts';
import { recoverDatasets } from './recover.ts';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

type Row = Record<string, unknown> & { question: string; answer: string };

/**
 * GSM8K's first 300 rows with defects: every 10th row from 3 a wrong final
 * answer, from 6 a wrong annotation (both repairable from the worked
 * solution), from 8 text lost to a replacement character (not repairable).
 */
const gsm8kRows = (): Row[] =>
  readFileSync(dataset('gsm8k_test_first300.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

function gsm8kWithDefects(dir: string): string {
  const rows = gsm8kRows();
  const altered = rows.map((row, i) => {
    if (i % 10 === 3) {
      return {
        ...row,
        answer: row.answer.replace(/#### (\d+)$/, (_m, n: string) => `#### ${Number(n) + 7}`),
      };
    }
    if (i % 10 === 8) return { ...row, question: row.question.replace(' ', ' \uFFFD ') };
    if (i % 10 === 6) {
      return {
        ...row,
        answer: row.answer.replace(
          /<<([^=>]+)=(-?[\d.]+)>>(-?[\d.]+)/,
          (_m, expr: string, result: string, shown: string) =>
            `<<${expr}=${Number(result) + 1}>>${Number(shown) + 1}`,
        ),
      };
    }
    return row;
  });
  const file = join(dir, 'gsm8k-defects.jsonl');
  writeFileSync(file, altered.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return file;
}

/** The builtin engine, a millisecond slower per audit pass (so a run can be caught mid-way). */
const slowBackend: EngineBackend = {
  id: 'slow',
  audit: async (sample, ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return builtinBackend.audit(sample, ctx);
  },
  proposeFix: (...args) => builtinBackend.proposeFix(...args),
};

const runEvents = (h: Harness, runId: string): RunStatus[] =>
  h.received
    .map((event) => OwnerEvent.parse(event))
    .flatMap((event) => (event.type === 'run' && event.run.id === runId ? [event.run] : []));

const owed = (h: Harness): number => 5_000_000 - balances(h.db, OWNER_ACCOUNT_ID).balance_micro;

async function importDefects(h: Harness) {
  return h.importFile(gsm8kWithDefects(h.dir), 'gsm8k', 'gsm8k with defects');
}

describe('a refine run over GSM8K with injected defects', () => {
  it('stores every row’s blocks, bills the owner per batch, keeps history, emits progress', async () => {
    const h = createHarness();
    const ds = await importDefects(h);
    // The whole trial (a run of 300 rows is short by its size and may take under a second: its
    // estimate would stop short).
    const estimate = await estimateRun(
      h.ctx,
      RunRequest.parse({ dataset_id: ds.id, operation: 'refine', scope: { kind: 'all' } }),
      builtinBackend,
      { shortRunMs: 0, shortRunChars: 0 },
    );
    expect(estimate).toMatchObject({ samples: 300, available_usd: 5, short_run: false });

    const started = RunStatus.parse(
      await h.call('startRun', { dataset_id: ds.id, operation: 'refine', scope: { kind: 'all' } }),
    );
    expect(started).toMatchObject({ status: 'running', total: 300, done: 0, operation: 'refine' });
    const run = await h.finished(started);
    expect(run).toMatchObject({ status: 'done', total: 300, done: 300, error: null });
    expect(run.finished_at).not.toBeNull();
    expect(run.cost_usd).toBeGreaterThan(0);
    expect(run.cost_usd).toBeLessThanOrEqual(estimate.max_cost_usd ?? 0);
    // the expected usage, from a trial run on 24 of the 300 rows, is within 2x of the actual
    expect(run.cost_usd / estimate.expected_cost_usd).toBeGreaterThan(0.5);
    expect(run.cost_usd / estimate.expected_cost_usd).toBeLessThan(2);

    // the wrong annotation was repaired, re-audited clean, and is pending review
    const annotation = await h.call('datasetRow', { dataset_id: ds.id, index: 6 });
    expect(annotation.audit?.checks.arithmetic?.passed).toBe(false);
    expect(annotation.fix?.changes.map((c) => c.reason)).toContain('arithmetic');
    expect(annotation.reaudit?.passed).toBe(true);
    expect(String(annotation.fixed_sample?.answer)).not.toBe(String(annotation.sample.answer));
    expect(annotation.decision).toBeNull();
    // the wrong final answer is restored from the solution's last calculator result
    const final = await h.call('datasetRow', { dataset_id: ds.id, index: 3 });
    expect(final.audit?.checks.answer_correct?.passed).toBe(false);
    expect(final.fix?.changes.map((c) => c.reason)).toContain('answer_correct');
    expect(final.reaudit?.passed).toBe(true);
    expect(final.fixed_sample?.answer).toBe(gsm8kRows()[3]?.answer);
    // lost text cannot be repaired: those rows stay failed and flagged
    const flagged = await h.call('datasetRows', {
      dataset_id: ds.id,
      offset: 0,
      limit: 100,
      filter: { flagged: true },
    });
    expect(flagged.total).toBe(30);
    expect(flagged.rows.every((row) => row.index % 10 === 8 && !row.passed)).toBe(true);

    // until fixes are accepted, the verdict is that of the original rows: every defect fails
    const [summary] = await h.call('listDatasets', {});
    // (a few of the 90 alterations find nothing to alter: no annotation of that form)
    expect(summary).toMatchObject({ audited: 300, flagged: 30 });
    const failed = summary?.failed ?? 0;
    expect(failed).toBeGreaterThan(85);
    expect(summary?.changed).toBeGreaterThanOrEqual(30);
    // accepting the clean fixes makes their reaudits the verdict: only the flagged rows still fail
    const accepted = await h.call('decide', {
      dataset_id: ds.id,
      decision: 'accepted',
      filter: { changed: true, flagged: false },
    });
    // (whitespace repairs of clean rows are among them)
    expect(accepted.updated).toBeGreaterThanOrEqual(failed - flagged.total);
    const [after] = await h.call('listDatasets', {});
    expect(after).toMatchObject({ failed: flagged.total, accepted: accepted.updated });

    // the owner's run spends no credit: its usage is recorded, line by line, adding up to its cost
    const charges = (await h.call('ledger', { limit: 10 })).filter((e) => e.kind === 'charge');
    expect(charges).toHaveLength(0);
    expect(owed(h)).toBe(0);
    const usage = usageOfRun(h.db, run.id);
    expect(usage.cost_micro).toBe(Math.round(run.cost_usd * 1e6));
    expect(usage.input_tokens).toBeGreaterThan(0);
    const history = await h.call('history', { limit: 10 });
    expect(history.map((item) => [item.source, item.operation, item.samples])).toEqual([
      ['app', 'refine', 100],
      ['app', 'refine', 200],
    ]);
    // Each batch's samples in and out, as JSON arrays in row order: the last row in is the
    // dataset's last row, and its result out holds the row's stored fix.
    const [last] = historyRows(h.db, { limit: 1, withJson: true }) as HistoryRow[];
    const [input, output] = [last?.input_json, last?.output_json].map(
      (text) => JSON.parse(text ?? 'null') as { question?: string; fix?: unknown }[],
    );
    expect([input?.length, output?.length]).toEqual([100, 100]);
    const lastRow = await h.call('datasetRow', { dataset_id: ds.id, index: 299 });
    expect(input?.at(-1)?.question).toBe((lastRow.sample as { question?: string }).question);
    expect(output?.at(-1)?.fix).toEqual(lastRow.fix);

    // progress: throttled events with rising `done`, then the final status
    const events = runEvents(h, run.id);
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.at(-1)).toEqual(run);
    const dones = events.map((e) => e.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
    expect(await h.call('listRuns', { dataset_id: ds.id })).toEqual([run]);
  });

  it('runs on the rows of a filter or a selection only', async () => {
    const h = createHarness();
    const ds = await importDefects(h);
    await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'audit', scope: { kind: 'all' } }),
    );
    const failed = await h.call('datasetRows', {
      dataset_id: ds.id,
      offset: 0,
      limit: 1000,
      filter: { failed_check: '*' },
    });
    const fix = await h.finished(
      await h.call('startRun', {
        dataset_id: ds.id,
        operation: 'fix',
        scope: { kind: 'filter', filter: { failed_check: '*' } },
      }),
    );
    expect(fix.total).toBe(failed.total);
    const fixedRows = await h.call('datasetRows', {
      dataset_id: ds.id,
      offset: 0,
      limit: 1000,
      filter: { changed: true },
    });
    const failedSet = new Set(failed.rows.map((r) => r.index));
    expect(fixedRows.rows.every((row) => failedSet.has(row.index))).toBe(true);
    // a fix run keeps the audit as the verdict until the fix is accepted, then its own reaudit
    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 6 });
    expect(row).toMatchObject({ audit: { passed: false }, reaudit: { passed: true } });
    expect(row.fix?.changes.length).toBeGreaterThan(0);
    expect(
      (await h.call('datasetRows', { dataset_id: ds.id, offset: 6, limit: 1 })).rows[0],
    ).toMatchObject({
      passed: false,
    });
    await h.call('decide', { dataset_id: ds.id, indices: [6], decision: 'accepted' });
    expect(
      (await h.call('datasetRows', { dataset_id: ds.id, offset: 6, limit: 1 })).rows[0],
    ).toMatchObject({
      index: 6,
      passed: true,
    });

    const selection = await h.finished(
      await h.call('startRun', {
        dataset_id: ds.id,
        operation: 'audit',
        scope: { kind: 'selection', indices: [5, 1, 5] },
      }),
    );
    expect(selection).toMatchObject({ status: 'done', total: 2 });
    await expect(
      h.call('startRun', {
        dataset_id: ds.id,
        operation: 'audit',
        scope: { kind: 'selection', indices: [300] },
      }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: /row 300/ });
  });

  it('allows one run per dataset at a time', async () => {
    const h = createHarness({ backend: slowBackend });
    const ds = await importDefects(h);
    const first = await h.call('startRun', {
      dataset_id: ds.id,
      operation: 'audit',
      scope: { kind: 'all' },
    });
    await expect(
      h.call('startRun', { dataset_id: ds.id, operation: 'audit', scope: { kind: 'all' } }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: /run in progress/ });
    await expect(h.call('deleteDataset', { dataset_id: ds.id })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect((await h.finished(first)).status).toBe('done');
  });
});

describe('cancelling and failing runs', () => {
  it('cancels mid-run: finished batches stay (with their usage), the batch in progress is dropped', async () => {
    const h = createHarness();
    const ds = await importDefects(h);
    // an engine that stops at row 250 (in the second batch) until the test has cancelled
    const row250 = (await h.call('datasetRow', { dataset_id: ds.id, index: 250 })).sample.question;
    let reached = (): void => undefined;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    h.setBackend({
      id: 'gated',
      audit: async (sample, ctx) => {
        if (sample.task_type === 'question_answer' && sample.question === row250) {
          reached();
          await gate;
        }
        return builtinBackend.audit(sample, ctx);
      },
      proposeFix: (...args) => builtinBackend.proposeFix(...args),
    });
    const started = await h.call('startRun', {
      dataset_id: ds.id,
      operation: 'refine',
      scope: { kind: 'all' },
    });
    await atGate;
    const cancelling = h.call('cancelRun', { run_id: started.id });
    open();
    const cancelled = await cancelling;
    expect(cancelled).toMatchObject({ status: 'cancelled', done: 200, error: null });
    expect(await h.call('cancelRun', { run_id: started.id })).toEqual(cancelled);
    const [summary] = await h.call('listDatasets', {});
    expect(summary?.audited).toBe(200);
    // the usage of the first batch (200 rows) only, as lines per model
    const lines = h.db
      .prepare('SELECT DISTINCT samples FROM owner_usage WHERE run_id = ?')
      .pluck()
      .all(started.id);
    expect(lines).toEqual([200]);
    expect(runEvents(h, started.id).at(-1)?.status).toBe('cancelled');
    await expect(h.call('cancelRun', { run_id: 'run_nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('writes a batch a few rows a transaction, other requests answered between them', async () => {
    const h = createHarness();
    const ds = await importDefects(h);
    const audited = (): number =>
      h.db
        .prepare(
          'SELECT count(*) FROM dataset_rows WHERE dataset_id = ? AND audit_json IS NOT NULL',
        )
        .pluck()
        .get(ds.id) as number;
    // What other requests see between the run's transactions.
    const seen = new Set<number>();
    let watching = true;
    const watch = (): void => {
      seen.add(audited());
      if (watching) setImmediate(watch);
    };
    watch();
    const run = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'audit', scope: { kind: 'all' } }),
    );
    watching = false;
    expect(run).toMatchObject({ status: 'done', done: 300 });
    // One transaction per batch would only ever show 0, 200 and 300 rows stored.
    expect([...seen].filter((n) => n % 100 !== 0).length).toBeGreaterThan(3);
    expect(Math.max(...seen)).toBe(300);
    const lines = h.db
      .prepare('SELECT samples FROM owner_usage WHERE run_id = ? ORDER BY id')
      .pluck()
      .all(run.id);
    expect(lines).toEqual([200, 100]);
  });

  it('runs with no credit left, and charges nothing', async () => {
    const h = createHarness();
    const ds = await importDefects(h);
    charge(h.db, { accountId: OWNER_ACCOUNT_ID, chargeMicro: 5_000_000, memo: 'spent elsewhere' });
    const run = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'refine', scope: { kind: 'all' } }),
    );
    expect(run).toMatchObject({ status: 'done', done: 300, error: null });
    expect(run.cost_usd).toBeGreaterThan(0);
    expect(balances(h.db, OWNER_ACCOUNT_ID).available_micro).toBe(0);
  });

  it('reports an engine failure as the run’s error', async () => {
    const h = createHarness();
    const ds = await importDefects(h);
    h.setBackend({
      id: 'down',
      audit: () => Promise.reject(new AppError('service_error', 'the upstream engine is down')),
      proposeFix: () => Promise.resolve(null),
    });
    const run = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'audit', scope: { kind: 'all' } }),
    );
    expect(run).toMatchObject({ status: 'failed', error: 'the upstream engine is down', done: 0 });
    expect(owed(h)).toBe(0);
  });
});

describe('recoverDatasets (start-up)', () => {
  it('marks runs a crash left running as failed, once', () => {
    const db = openDatabase(':memory:');
    insertDataset(db, {
      id: 'ds_1',
      name: 'x',
      file_name: 'x.jsonl',
      format: 'jsonl',
      shape: 'text',
    });
    finishImport(db, 'ds_1', { row_count: 0, error_count: 0, task_types: [] });
    insertRun(db, {
      id: 'run_1',
      dataset_id: 'ds_1',
      operation: 'audit',
      scope_json: '{}',
      config_json: '{}',
      total: 10,
      started_at: new Date().toISOString(),
    });
    recoverDatasets(db);
    expect(runRecord(db, 'run_1')).toMatchObject({ status: 'failed', error: /interrupted/ });
  });
});
