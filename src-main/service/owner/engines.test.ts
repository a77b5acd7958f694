import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnginesView } from '../../../src-shared/owner/engines.ts';
import {
  closedPort,
  startFakeUpstream,
  type FakeUpstream,
} from '../../engine/upstream/testing/fake-upstream.ts';
import { openDatabase } from '../../store/db.ts';
import { readSettings } from '../../store/settings.ts';
import type { Env } from '../runs/backend-select.ts';
import { createServiceContext } from '../context/service-context.ts';
import { engineHandlers } from './engines.ts';
import { dispatchOwnerCall } from './dispatch.ts';
import type { OwnerHandlers } from './handler-types.ts';
import { plainSecretBox, setSecretBox } from './secret-box.ts';

const KEY = 'sk-test-0123456789abcdef';

function setup(env: Env = {}) {
  const ctx = createServiceContext(openDatabase(':memory:'), ':memory:', '1.0.0');
  return { ctx, engines: engineHandlers(ctx, env) };
}

const upstreamOf = (base_url: string, over: Record<string, unknown> = {}) => ({
  base_url,
  model: null,
  api_key: { keep: true as const },
  timeout_seconds: 30,
  concurrency: 2,
  ...over,
});

describe('the engines of the Settings screen', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream(() => ({ status: 500, json: {} }), ['llama3.1']);
  });
  afterAll(() => upstream.close());

  it('starts with both roles builtin', async () => {
    const view = EnginesView.parse(await setup().engines.getEngines({}));
    expect(view.audit).toMatchObject({ stored: null, in_force: { kind: 'builtin' } });
    expect(view.fix).toMatchObject({ model_id: 'svc-fix-1', stored: null });
    expect(view.secret_storage).toBe('plain');
  });

  it('stores a role with its key sealed and shows only the mask', async () => {
    const { ctx, engines } = setup();
    const view = await engines.updateEngine({
      role: 'audit',
      upstream: upstreamOf(`${upstream.url}/`, { api_key: { set: KEY } }),
    });
    expect(view.audit.stored).toMatchObject({ base_url: upstream.url, api_key: 'sk-…cdef' });
    expect(view.audit.in_force).toMatchObject({
      kind: 'upstream',
      origin: { base_url: 'settings' },
    });
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(readSettings(ctx.db).upstream.audit?.api_key).toEqual({ box: 'plain', data: KEY });
    expect(view.fix.stored).toBeNull();

    // keep: the same server keeps its key
    const kept = await engines.updateEngine({
      role: 'audit',
      upstream: upstreamOf(upstream.url, { model: 'llama3.1' }),
    });
    expect(kept.audit.stored).toMatchObject({ model: 'llama3.1', api_key: 'sk-…cdef' });
    // ...but a kept key never follows the role to another server
    await expect(
      engines.updateEngine({ role: 'audit', upstream: upstreamOf('http://127.0.0.1:9/v1') }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    const cleared = await engines.updateEngine({
      role: 'audit',
      upstream: upstreamOf('http://127.0.0.1:9/v1', { api_key: { clear: true } }),
    });
    expect(cleared.audit.stored?.api_key).toBeNull();
    const off = await engines.updateEngine({ role: 'audit', upstream: null });
    expect(off.audit).toMatchObject({ stored: null, in_force: { kind: 'builtin' } });
    expect(readSettings(ctx.db).upstream.audit).toBeNull();
  });

  it('refuses bad values at the edge with a path', async () => {
    const { ctx } = setup();
    const handlers = engineHandlers(ctx, {}) as unknown as OwnerHandlers;
    for (const upstreamValue of [
      upstreamOf('ftp://example.com'),
      upstreamOf('http://127.0.0.1:1/v1', { concurrency: 0 }),
      upstreamOf('http://127.0.0.1:1/v1', { timeout_seconds: -1 }),
      upstreamOf('http://127.0.0.1:1/v1', { api_key: { set: '' } }),
    ]) {
      const result = await dispatchOwnerCall(handlers, 'updateEngine', {
        role: 'audit',
        upstream: upstreamValue,
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(readSettings(ctx.db).upstream.audit).toBeNull();
  });

  it('says when the environment overrides the stored values', async () => {
    const { engines } = setup({ SVC_UPSTREAM_URL: upstream.url, SVC_FIX_UPSTREAM_URL: 'off' });
    const view = await engines.getEngines({});
    expect(view.audit).toMatchObject({
      stored: null,
      in_force: { kind: 'upstream', origin: { base_url: 'SVC_UPSTREAM_URL' } },
    });
    expect(view.fix.in_force).toMatchObject({
      kind: 'builtin',
      origin: { base_url: 'SVC_FIX_UPSTREAM_URL' },
    });
  });

  it('tests the connection: models listed, a missing model, a refused port', async () => {
    const { engines } = setup();
    expect(await engines.testEngine({ role: 'fix' })).toMatchObject({ ok: true, models: [] });

    await engines.updateEngine({ role: 'fix', upstream: upstreamOf(upstream.url) });
    const only = await engines.testEngine({ role: 'fix' });
    expect(only).toMatchObject({ ok: true, models: ['llama3.1'] });
    expect(only.message).toContain('llama3.1');

    await engines.updateEngine({
      role: 'fix',
      upstream: upstreamOf(upstream.url, { model: 'qwen2.5' }),
    });
    const missing = await engines.testEngine({ role: 'fix' });
    expect(missing).toMatchObject({ ok: false, models: ['llama3.1'] });
    expect(missing.message).toContain('qwen2.5');

    const port = await closedPort();
    await engines.updateEngine({
      role: 'fix',
      upstream: upstreamOf(`http://127.0.0.1:${port}/v1`, { api_key: { clear: true } }),
    });
    const refused = await engines.testEngine({ role: 'fix' });
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/refused|connect/i);
  });

  it('shows where a key is sealed when this process cannot open it', async () => {
    const { engines } = setup();
    // A reversible stand-in for the keychain: base64 under another box id.
    setSecretBox({
      id: 'test-box',
      encrypt: (plain) => Buffer.from(plain).toString('base64'),
      decrypt: (sealed) => Buffer.from(sealed, 'base64').toString(),
    });
    try {
      const view = await engines.updateEngine({
        role: 'audit',
        upstream: upstreamOf(upstream.url, { api_key: { set: KEY } }),
      });
      expect(view.audit.stored?.api_key).toBe('sk-…cdef');
      expect(view.secret_storage).toBe('test-box');
    } finally {
      setSecretBox(plainSecretBox);
    }
    const elsewhere = await engines.getEngines({});
    expect(elsewhere.audit.stored?.api_key).toMatch(/sealed by test-box/);
    expect(elsewhere.audit.in_force.kind).toBe('unavailable');
  });
});

describe('testing values before they are saved', () => {
  it('tests the form’s values, not what is stored, and stores nothing', async () => {
    const upstream = await startFakeUpstream(() => ({ status: 500, json: {} }), ['qwen2.5']);
    try {
      const { ctx, engines } = setup();
      const result = await engines.testEngine({
        role: 'audit',
        upstream: {
          base_url: upstream.url,
          model: 'qwen2.5',
          api_key: { set: KEY },
          timeout_seconds: 10,
          concurrency: 1,
        },
      });
      expect(result).toMatchObject({ ok: true, models: ['qwen2.5'] });
      expect(readSettings(ctx.db).upstream.audit).toBeNull();
      expect((await engines.getEngines({})).audit.in_force.kind).toBe('builtin');
    } finally {
      await upstream.close();
    }
  });
});
