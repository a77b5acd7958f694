import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ownerApi,
  type OwnerInput,
  type OwnerMethod,
  type OwnerOutput,
} from '../../../src-shared/owner-api.ts';
import { CreatedKey, Credits, KeyRecord, LedgerEntry } from '../../../src-shared/owner/account.ts';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { openDatabase } from '../../store/db.ts';
import { charge, OWNER_ACCOUNT_ID } from '../billing/billing.ts';
import { createServiceContext } from '../context/service-context.ts';
import { recordHistory } from '../runs/history.ts';
import { authenticate } from '../billing/keys.ts';
import { createOwnerHandlers } from './handlers.ts';

function setup() {
  const db = openDatabase(':memory:');
  const ctx = createServiceContext(db, ':memory:', 'test');
  const handlers = createOwnerHandlers(ctx, {
    address: () => ({ host: '127.0.0.1', port: null, url: null }),
    emit: () => undefined,
    backend: () => builtinBackend,
    uploads: { pathOf: () => '' },
    downloads: { register: () => '' },
    tempDir: mkdtempSync(join(tmpdir(), 'svc-account-')),
  });
  const call = <M extends OwnerMethod>(method: M, input: OwnerInput<M>): Promise<OwnerOutput<M>> =>
    (handlers[method] as (input: unknown) => Promise<OwnerOutput<M>>)(
      ownerApi[method].input.parse(input),
    );
  return { db, ctx, call };
}

describe('the account methods', () => {
  it('creates a key shown once, lists it without its secret, revokes it', async () => {
    const { db, call } = setup();
    const created = CreatedKey.parse(await call('createKey', { name: 'notebook' }));
    const listed = await call('listKeys', {});
    expect(listed).toEqual([created.record]);
    expect(authenticate(db, `Bearer ${created.key}`).accountId).toBe(OWNER_ACCOUNT_ID);
    expect(Object.keys(listed[0]!).sort()).toEqual(Object.keys(KeyRecord.shape).sort());
    const revoked = await call('revokeKey', { id: created.record.id });
    expect(revoked.revoked_at).not.toBeNull();
    await expect(call('revokeKey', { id: 'key_nope' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('shows credit, adds to it and lists the ledger in USD, newest first', async () => {
    const { db, call } = setup();
    expect(await call('credits', {})).toEqual({ balance_usd: 5, held_usd: 0, available_usd: 5 });
    expect(Credits.parse(await call('addCredits', { usd: 2.5 }))).toEqual({
      balance_usd: 7.5,
      held_usd: 0,
      available_usd: 7.5,
    });
    charge(db, { accountId: OWNER_ACCOUNT_ID, chargeMicro: 120_000, memo: 'a run' });
    const ledger = (await call('ledger', {})).map((entry) => LedgerEntry.parse(entry));
    expect(ledger.map((e) => [e.kind, e.amount_usd])).toEqual([
      ['charge', 0.12],
      ['grant', 2.5],
      ['grant', 5],
    ]);
    const older = await call('ledger', { limit: 1, before_id: ledger[0]!.id });
    expect(older.map((e) => e.id)).toEqual([ledger[1]!.id]);
    const days = await call('spendByDay', { days: 3 });
    expect(days).toHaveLength(3);
    expect(days.at(-1)?.charged_usd).toBe(0.12);
  });

  it('lists the fix and refine history with its cost in USD', async () => {
    const { db, call } = setup();
    recordHistory(db, {
      requestId: 'run_1',
      operation: 'refine',
      source: 'app',
      input: [{}, {}],
      output: [{}, {}],
      costMicro: 30_000,
    });
    expect(await call('history', {})).toEqual([
      expect.objectContaining({ operation: 'refine', source: 'app', samples: 2, cost_usd: 0.03 }),
    ]);
  });
});

describe('the settings methods', () => {
  it('reads and updates rates, limits, the server and the dataset checks, section by section', async () => {
    const { ctx, call } = setup();
    expect(await call('getSettings', {})).toEqual({
      rates: DEFAULT_SETTINGS.rates,
      limits: DEFAULT_SETTINGS.limits,
      server: DEFAULT_SETTINGS.server,
      dedup: { threshold: 0.8 },
      engine: { workers: null },
      contamination: { benchmarks: 'all' },
    });
    expect(
      (await call('updateSettings', { contamination: { benchmarks: 'gsm8k, math' } }))
        .contamination,
    ).toEqual({ benchmarks: 'gsm8k, math' });
    expect((await call('updateSettings', { dedup: { threshold: 0.9 } })).dedup.threshold).toBe(0.9);
    const handlers = (await import('./settings.ts')).settingsHandlers(ctx);
    await expect(handlers.updateSettings({ dedup: { threshold: 0.2 } })).rejects.toMatchObject({
      code: 'invalid_request',
      errors: [{ path: '/dedup/threshold' }],
    });
    expect(ctx.settings().dedup.threshold).toBe(0.9);
    const limits = { ...DEFAULT_SETTINGS.limits, cost_cap_usd_per_request: 2 };
    const updated = await call('updateSettings', { limits });
    expect(updated.limits).toEqual(limits);
    expect(updated.rates).toEqual(DEFAULT_SETTINGS.rates);
    expect(ctx.settings().limits.cost_cap_usd_per_request).toBe(2);
    // One field of a section: the section's other fields stay as they were.
    const one = await call('updateSettings', { limits: { requests_per_minute_native: 2 } });
    expect(one.limits).toEqual({ ...limits, requests_per_minute_native: 2 });
    await expect(
      handlers.updateSettings({ limits: { requests_per_minute_v1: 0 } }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      errors: [{ path: '/limits/requests_per_minute_v1' }],
    });
    expect(ctx.settings().limits).toEqual({ ...limits, requests_per_minute_native: 2 });
  });

  it('refuses invalid values as invalid_request and changes nothing', async () => {
    const { ctx, call } = setup();
    const handlers = (await import('./settings.ts')).settingsHandlers(ctx);
    await expect(
      handlers.updateSettings({
        server: { enabled: true, port: 70000 },
      }),
    ).rejects.toMatchObject({ code: 'invalid_request', errors: [{ path: '/server/port' }] });
    expect((await call('getSettings', {})).server).toEqual(DEFAULT_SETTINGS.server);
  });
});
