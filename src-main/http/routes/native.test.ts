import { describe, expect, it } from 'vitest';
import {
  AuditResponse,
  FixResponse,
  NativeError,
  RefineResponse,
} from '../../../src-shared/schemas/native.ts';
import { writeSettingsSection } from '../../store/settings.ts';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';
import { balances, charge, grant, ledgerEntries } from '../../service/billing/billing.ts';
import { listHistory } from '../../service/runs/history.ts';
import { revokeKey, listKeys } from '../../service/billing/keys.ts';
import { gsm8k } from '../../engine/testing/real-data.ts';
import { createTestApp } from '../testing/test-app.ts';

const text = (t: string) => ({ task_type: 'text', text: t });
const errorOf = async (res: Response) => NativeError.parse(await res.json());

describe('native routes: auth', () => {
  it.each([
    ['no header', undefined],
    ['not Bearer', 'Basic abc'],
    ['not an svc_ key', 'Bearer sk-123'],
    ['an unknown key', 'Bearer svc_' + 'x'.repeat(43)],
  ])('401 for %s', async (_name, authorization) => {
    const app = createTestApp();
    const res = await app.request('/audit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ data: [text('hi')] }),
    });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('invalid_api_key');
  });

  it('401 for a revoked key', async () => {
    const app = createTestApp();
    const key = app.key();
    expect((await app.post('/audit', { data: [text('hi')] }, key)).status).toBe(200);
    revokeKey(app.db, listKeys(app.db)[0]!.id);
    expect((await app.post('/audit', { data: [text('hi')] }, key)).status).toBe(401);
  });
});

describe('native routes: validation (422 before any work, nothing held)', () => {
  const cases: [string, unknown, RegExp][] = [
    ['an empty list', { data: [] }, /empty/],
    ['a missing data member', {}, /data/],
    ['101 samples', { data: Array(101).fill(text('x')) }, /100/],
    ['a malformed sample', { data: [text('ok'), { task_type: 'text' }] }, /\/data\/1\/text/],
    ['an unsupported task type', { data: [{ task_type: 'image' }] }, /\/data\/0\/task_type/],
    ['votes out of range', { data: [text('x')], config: { votes: 10 } }, /votes/],
    ['votes as a string', { data: [text('x')], config: { votes: '3' } }, /votes/],
    ['conventions too long', { data: [text('x')], conventions: 'x'.repeat(4001) }, /conventions/],
    ['malformed JSON', '{"data": [', /malformed JSON/],
    // A body of 64 KiB or more is parsed and validated a turn later each: the same answers.
    [
      'malformed JSON of 100 KB',
      `{"data": [${JSON.stringify(text('x'.repeat(100_000)))}`,
      /malformed JSON/,
    ],
    [
      'a malformed sample in 100 KB',
      { data: [text('x'.repeat(100_000)), { task_type: 'text' }] },
      /\/data\/1\/text/,
    ],
  ];
  it.each(cases)('422 for %s', async (_name, body, detail) => {
    const app = createTestApp();
    const res = await app.post('/audit', body, app.key());
    expect(res.status).toBe(422);
    const error = await errorOf(res);
    expect(error.detail).toMatch(detail);
    expect(balances(app.db, 1).held_micro).toBe(0);
    expect(ledgerEntries(app.db, 1, { limit: 10 }).filter((e) => e.kind !== 'grant')).toHaveLength(
      0,
    );
  });

  it('names every problem with a JSON Pointer in `errors`', async () => {
    const app = createTestApp();
    const res = await app.post(
      '/fix',
      { data: [{ task_type: 'multiple_choice', context: 1 }] },
      app.key(),
    );
    const error = await errorOf(res);
    expect(error.errors?.map((e) => e.path)).toEqual(
      expect.arrayContaining(['/data/0/context', '/data/0/choices', '/data/0/answer_index']),
    );
  });

  it('422 for a sample larger than the context', async () => {
    const app = createTestApp();
    const res = await app.post('/audit', { data: [text('word '.repeat(40_000))] }, app.key());
    expect(res.status).toBe(422);
    expect((await errorOf(res)).code).toBe('context_length_exceeded');
  });

  it('422 when the estimated cost is above the cap', async () => {
    const app = createTestApp();
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      cost_cap_usd_per_request: 0.01,
    });
    const res = await app.post(
      '/refine',
      { data: Array(50).fill(text('word '.repeat(2000))) },
      app.key(),
    );
    expect(res.status).toBe(422);
    expect((await errorOf(res)).code).toBe('cost_limit_exceeded');
  });
});

describe('native routes: billing', () => {
  it('answers the audit envelope, charges at least one cent, stores nothing', async () => {
    const app = createTestApp();
    const before = balances(app.db, 1).balance_micro;
    const res = await app.post('/audit', { data: gsm8k().slice(0, 3) }, app.key());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const json: unknown = JSON.parse(new TextDecoder().decode(bytes));
    // The envelope's members in the order it always had (its samples are written apart).
    expect(Object.keys(json as object)).toEqual([
      'audited_data',
      'counts',
      'cost_usd',
      'input_tokens',
      'output_tokens',
      'request_id',
    ]);
    const body = AuditResponse.parse(json);
    // Three GSM8K test items in a request of three: each holds a benchmark item and fails
    // `contamination` (too few rows to be read as the benchmark itself); every other check passes.
    expect(body.counts).toEqual({ samples: 3, passed: 0, failed: 3 });
    for (const sample of body.audited_data) {
      const failing = Object.entries(sample.audit.checks).filter(([, v]) => v.passed === false);
      expect(failing.map(([name]) => name)).toEqual(['contamination']);
      expect(sample.audit.checks.contamination?.issues[0]).toMatchObject({
        code: 'benchmark_overlap',
        benchmark: 'gsm8k/test',
      });
    }
    expect(body.cost_usd).toBe(0.01);
    expect(body.input_tokens).toBeGreaterThan(100);
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
    expect(balances(app.db, 1).balance_micro).toBe(before - 10_000);
    expect(listHistory(app.db, { limit: 10 })).toHaveLength(0);
  });

  it('answers fix and refine envelopes and keeps them in the history', async () => {
    const app = createTestApp();
    const key = app.key();
    const sample = text('<b>Hello</b>  world, write to jo.park@gmail.com');
    const fix = FixResponse.parse(await (await app.post('/fix', { data: [sample] }, key)).json());
    expect(fix.counts).toEqual({ samples: 1, changed: 1, unchanged: 0, flagged: 0 });
    expect(fix.fixed_data[0]).toMatchObject({ text: 'Hello world, write to [EMAIL]' });
    const refine = RefineResponse.parse(
      await (
        await app.post(
          '/refine',
          { data: [sample, text('Fine.')], config: { fix: { max_attempts: 2 } } },
          key,
        )
      ).json(),
    );
    expect(refine.counts).toEqual({
      samples: 2,
      failed_before: 1,
      changed: 1,
      flagged: 0,
      failed_after: 0,
    });
    expect(refine.refined_data[1]).toMatchObject({ reaudit: null });
    expect(
      listHistory(app.db, { limit: 10 })
        .map((h) => h.operation)
        .sort(),
    ).toEqual(['fix', 'refine']);
  });

  it('402 before any work when the balance cannot hold a cent', async () => {
    const app = createTestApp();
    const key = app.key();
    // spend the welcome credit down to zero
    const { available_micro } = balances(app.db, 1);
    charge(app.db, { accountId: 1, chargeMicro: available_micro, memo: 'test spend' });
    const res = await app.post('/audit', { data: [text('hi')] }, key);
    expect(res.status).toBe(402);
    expect((await errorOf(res)).code).toBe('insufficient_quota');
    grant(app.db, 1, 10_000, 'top up');
    expect((await app.post('/audit', { data: [text('hi')] }, key)).status).toBe(200);
  });

  it('402 and no result when the settled cost overruns the balance; the hold is released', async () => {
    const app = createTestApp();
    const key = app.key();
    charge(app.db, {
      accountId: 1,
      chargeMicro: balances(app.db, 1).available_micro - 10_000,
      memo: 'test spend',
    });
    const data = Array.from({ length: 100 }, (_, i) =>
      text(`${'Lorem ipsum dolor sit amet. '.repeat(60)} ${i}`),
    );
    const res = await app.post('/refine', { data }, key);
    expect(res.status).toBe(402);
    expect((await errorOf(res)).code).toBe('insufficient_quota');
    expect(balances(app.db, 1)).toEqual({
      balance_micro: 10_000,
      held_micro: 0,
      available_micro: 10_000,
    });
    expect(listHistory(app.db, { limit: 10 })).toHaveLength(0);
  });

  it('ledger race: 10 cents, 50 concurrent requests: exactly 10 succeed and the ledger balances', async () => {
    const app = createTestApp();
    const key = app.key();
    const { available_micro } = balances(app.db, 1);
    charge(app.db, { accountId: 1, chargeMicro: available_micro - 100_000, memo: 'test spend' });
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      requests_per_minute_native: 1000,
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        Promise.resolve(app.post('/audit', { data: [text(`sample number ${i}`)] }, key)),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(balances(app.db, 1)).toEqual({ balance_micro: 0, held_micro: 0, available_micro: 0 });
  });
});

describe('native routes: rate limit', () => {
  it('429 with Retry-After and x-ratelimit headers past the per-minute limit, before any hold', async () => {
    const app = createTestApp();
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      requests_per_minute_native: 3,
    });
    const key = app.key();
    for (let i = 0; i < 3; i++) {
      const ok = await app.post('/audit', { data: [text('hi')] }, key);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining-requests')).toBe(String(2 - i));
    }
    const limited = await app.post('/audit', { data: [text('hi')] }, key);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect((await errorOf(limited)).code).toBe('rate_limit_exceeded');
    // another key has its own allowance
    expect((await app.post('/audit', { data: [text('hi')] }, app.key())).status).toBe(200);
  });
});

describe('native routes: dataset checks within one request', () => {
  const items = [
    text('The quick brown fox jumps over the lazy dog.'),
    text('Something else entirely, with its own words.'),
    text('the QUICK brown fox jumps over the lazy dog'),
  ];

  it('fails a later copy on `duplicates`, naming the first by its index in data', async () => {
    const app = createTestApp();
    const res = await app.post('/audit', { data: items }, app.key());
    expect(res.status).toBe(200);
    const body = AuditResponse.parse(await res.json());
    const [first, other, copy] = body.audited_data;
    expect(first?.audit.checks.duplicates).toEqual({ passed: true, score: 1, issues: [] });
    expect(other?.audit.checks.duplicates?.passed).toBe(true);
    expect(copy?.audit.passed).toBe(false);
    expect(copy?.audit.checks.duplicates?.issues).toEqual([
      expect.objectContaining({ code: 'exact_duplicate', ref: 0, similarity: 1 }),
    ]);
    expect(copy?.audit.checks.duplicates?.issues[0]?.message).toContain('data[0]');
    expect(body.counts.failed).toBeGreaterThanOrEqual(1);
    expect(body.counts.passed + body.counts.failed).toBe(3);
  });

  it('flags a duplicate in a fix result, since it cannot be left out', async () => {
    const app = createTestApp();
    const body = FixResponse.parse(
      await (await app.post('/fix', { data: items }, app.key())).json(),
    );
    expect(body.fixed_data[2]?.fix).toEqual({ changes: [], flagged: true, attempts: 0 });
    expect(body.fixed_data[0]?.fix).toBeUndefined();
    expect(body.counts.flagged).toBe(1);
  });

  it('puts the verdict into audit and reaudit on refine', async () => {
    const app = createTestApp();
    const body = RefineResponse.parse(
      await (await app.post('/refine', { data: items }, app.key())).json(),
    );
    expect(body.refined_data[2]?.audit.checks.duplicates?.passed).toBe(false);
    expect(body.counts.failed_before).toBeGreaterThanOrEqual(1);
    expect(body.counts.failed_after).toBeGreaterThanOrEqual(1);
  });
});
