import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import {
  DEFAULT_SETTINGS,
  DEFAULT_UPSTREAM_CONCURRENCY,
  DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
  type Settings,
  type UpstreamRoleSetting,
} from '../../../src-shared/schemas/settings.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { NO_CONVENTIONS } from '../../engine/conventions.ts';
import { auditSamples } from '../../engine/operations.ts';
import {
  completion,
  startFakeUpstream,
  type FakeUpstream,
} from '../../engine/upstream/testing/fake-upstream.ts';
import { openDatabase } from '../../store/db.ts';
import { readSettings, writeSettingsSection } from '../../store/settings.ts';
import { describeEngines, resolveEngines, selectBackend, type Env } from './backend-select.ts';
import { createServiceContext } from '../context/service-context.ts';
import {
  getSecretBox,
  maskSecret,
  openSecret,
  plainSecretBox,
  sealSecret,
  setSecretBox,
  type SecretBox,
} from '../owner/secret-box.ts';

const servers: FakeUpstream[] = [];
afterEach(async () => {
  setSecretBox(plainSecretBox);
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const role = (over: Partial<UpstreamRoleSetting> = {}): UpstreamRoleSetting => ({
  base_url: 'http://127.0.0.1:11434/v1',
  model: 'llama3.1',
  api_key: null,
  timeout_seconds: DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
  concurrency: DEFAULT_UPSTREAM_CONCURRENCY,
  ...over,
});

const settingsWith = (upstream: Settings['upstream']): Settings => ({
  ...DEFAULT_SETTINGS,
  upstream,
});

const engines = (settings: Settings, env: Env) => {
  const resolved = resolveEngines(settings, env);
  return { audit: resolved.audit.engine, fix: resolved.fix.engine };
};

describe('resolveEngines', () => {
  it('is builtin for both roles with no settings and no environment', () => {
    expect(engines(DEFAULT_SETTINGS, {})).toEqual({
      audit: { kind: 'builtin' },
      fix: { kind: 'builtin' },
    });
  });

  it('takes SVC_UPSTREAM_* for both roles', () => {
    const env = {
      SVC_UPSTREAM_URL: 'http://127.0.0.1:11434/v1/',
      SVC_UPSTREAM_MODEL: 'llama3.1',
      SVC_UPSTREAM_KEY: 'sk-env-key-0123456789',
      SVC_UPSTREAM_TIMEOUT: '30',
      SVC_UPSTREAM_CONCURRENCY: '8',
    };
    const upstream = {
      kind: 'upstream',
      config: {
        baseURL: 'http://127.0.0.1:11434/v1',
        model: 'llama3.1',
        apiKey: 'sk-env-key-0123456789',
        timeoutMs: 30_000,
        concurrency: 8,
      },
    };
    expect(engines(DEFAULT_SETTINGS, env)).toEqual({ audit: upstream, fix: upstream });
  });

  it('lets a role-specific variable win, and URL=off keep a role builtin', () => {
    const env = {
      SVC_UPSTREAM_URL: 'http://127.0.0.1:11434/v1',
      SVC_UPSTREAM_MODEL: 'llama3.1',
      SVC_AUDIT_UPSTREAM_MODEL: 'qwen2.5',
      SVC_FIX_UPSTREAM_URL: 'off',
    };
    const { audit, fix } = engines(settingsWith({ audit: null, fix: role() }), env);
    expect(audit).toMatchObject({ kind: 'upstream', config: { model: 'qwen2.5' } });
    expect(fix).toEqual({ kind: 'builtin' });
  });

  it('reads the settings, defaults for what is unset, and ignores empty variables', () => {
    const { audit, fix } = engines(
      settingsWith({ audit: role({ model: null, timeout_seconds: 2.5 }), fix: null }),
      { SVC_UPSTREAM_URL: '  ', SVC_UPSTREAM_MODEL: '' },
    );
    expect(audit).toEqual({
      kind: 'upstream',
      config: {
        baseURL: 'http://127.0.0.1:11434/v1',
        model: null,
        apiKey: null,
        timeoutMs: 2500,
        concurrency: DEFAULT_UPSTREAM_CONCURRENCY,
      },
    });
    expect(fix).toEqual({ kind: 'builtin' });
  });

  it('lets the environment win field by field, but sends the stored key only to the stored URL', () => {
    const stored = role({ api_key: sealSecret('sk-stored-key-0123456789') });
    const settings = settingsWith({ audit: stored, fix: stored });
    const sameServer = engines(settings, { SVC_UPSTREAM_MODEL: 'mistral' }).audit;
    expect(sameServer).toMatchObject({
      kind: 'upstream',
      config: { model: 'mistral', apiKey: 'sk-stored-key-0123456789' },
    });
    const otherServer = engines(settings, { SVC_UPSTREAM_URL: 'http://10.0.0.5:8000/v1' }).audit;
    expect(otherServer).toMatchObject({
      kind: 'upstream',
      config: { baseURL: 'http://10.0.0.5:8000/v1', model: 'llama3.1', apiKey: null },
    });
    const envKey = engines(settings, { SVC_AUDIT_UPSTREAM_KEY: 'sk-env-0123456789abcd' }).audit;
    expect(envKey).toMatchObject({ config: { apiKey: 'sk-env-0123456789abcd' } });
  });

  it('makes a role unavailable, with the reason, for a bad variable or an unreadable key', () => {
    expect(engines(DEFAULT_SETTINGS, { SVC_UPSTREAM_URL: 'localhost:11434' }).audit).toEqual({
      kind: 'unavailable',
      message:
        'SVC_UPSTREAM_URL must be an http:// or https:// URL such as http://127.0.0.1:11434/v1, ' +
        'got "localhost:11434"',
    });
    expect(
      engines(DEFAULT_SETTINGS, {
        SVC_UPSTREAM_URL: 'http://127.0.0.1:1/v1',
        SVC_FIX_UPSTREAM_CONCURRENCY: '0',
      }).fix,
    ).toEqual({
      kind: 'unavailable',
      message: 'SVC_FIX_UPSTREAM_CONCURRENCY must be a whole number from 1 to 64, got "0"',
    });
    const sealed = role({ api_key: { box: 'electron-safe-storage', data: 'AAAA' } });
    const unreadable = engines(settingsWith({ audit: sealed, fix: null }), {}).audit;
    expect(unreadable.kind).toBe('unavailable');
    expect(unreadable.kind === 'unavailable' && unreadable.message).toMatch(
      /sealed by "electron-safe-storage" and cannot be read here \("plain"\)/,
    );
  });

  it('describes the engines in force without the key', () => {
    const key = 'sk-live-0123456789abcdefXYZW';
    const lines = describeEngines(
      resolveEngines(DEFAULT_SETTINGS, {
        SVC_AUDIT_UPSTREAM_URL: 'http://127.0.0.1:11434/v1',
        SVC_AUDIT_UPSTREAM_MODEL: 'llama3.1',
        SVC_AUDIT_UPSTREAM_KEY: key,
      }),
    );
    expect(lines).toEqual([
      'svc-audit-1: upstream llama3.1 at http://127.0.0.1:11434/v1, key sk-…XYZW ' +
        '(from SVC_AUDIT_UPSTREAM_URL, SVC_AUDIT_UPSTREAM_MODEL, SVC_AUDIT_UPSTREAM_KEY)',
      'svc-fix-1: builtin',
    ]);
    expect(lines.join('\n')).not.toContain(key);
  });
});

describe('selectBackend', () => {
  const context = () => {
    const db = openDatabase(':memory:');
    return { db, ctx: createServiceContext(db, ':memory:', 'test') };
  };

  it('is the builtin backend by default, and follows settings changes at once', () => {
    const { db, ctx } = context();
    expect(selectBackend(ctx, {})).toBe(builtinBackend);
    writeSettingsSection(db, 'upstream', { audit: role(), fix: null });
    const upstream = selectBackend(ctx, {});
    expect(upstream.id).toBe('audit: upstream llama3.1 at http://127.0.0.1:11434/v1; fix: builtin');
    expect(selectBackend(ctx, {})).toBe(upstream); // reused while the configuration holds
    writeSettingsSection(db, 'upstream', { audit: null, fix: null });
    expect(selectBackend(ctx, {})).toBe(builtinBackend);
  });

  it('runs an audit on the server the environment names, with its key', async () => {
    const server = await startFakeUpstream(() =>
      completion({
        fluency: { passed: true, issues: [] },
        coherence: { passed: false, issues: [{ code: 'x', message: 'y', severity: 'error' }] },
        formatting: { passed: true, issues: [] },
        safety: { passed: true, issues: [] },
      }),
    );
    servers.push(server);
    const { ctx } = context();
    const env = {
      SVC_UPSTREAM_URL: server.url,
      SVC_UPSTREAM_MODEL: 'fake-model',
      SVC_UPSTREAM_KEY: 'sk-env-0123456789abcdef',
    };
    const { blocks } = await auditSamples(
      [{ task_type: 'text', text: 'Hello there.' }],
      { votes: 1 },
      { backend: selectBackend(ctx, env), conventions: NO_CONVENTIONS },
    );
    expect(blocks[0]?.checks.coherence?.passed).toBe(false);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-env-0123456789abcdef');
  });

  it('fails requests, not the selection, when a role is misconfigured', async () => {
    const { ctx } = context();
    const backend = selectBackend(ctx, { SVC_UPSTREAM_URL: 'ftp://example.com' });
    await expect(
      auditSamples(
        [{ task_type: 'text', text: 'x' }],
        { votes: 1 },
        {
          backend,
          conventions: NO_CONVENTIONS,
        },
      ),
    ).rejects.toThrow(/svc-audit-1 cannot run: SVC_UPSTREAM_URL must be an http/);
  });
});

describe('the secret box', () => {
  it('seals with the box in force and names it; another box cannot open it', () => {
    const reversing: SecretBox = {
      id: 'test-box',
      encrypt: (plain) => Buffer.from(plain).reverse().toString('base64'),
      decrypt: (sealed) => Buffer.from(sealed, 'base64').reverse().toString(),
    };
    setSecretBox(reversing);
    expect(getSecretBox()).toBe(reversing);
    const stored = sealSecret('sk-abc-0123456789');
    expect(stored.box).toBe('test-box');
    expect(stored.data).not.toContain('sk-abc');
    expect(openSecret(stored)).toBe('sk-abc-0123456789');
    expect(() => openSecret(stored, plainSecretBox)).toThrow(AppError);
  });

  it('stores the key in the settings as the box sealed it', () => {
    const db = openDatabase(':memory:');
    writeSettingsSection(db, 'upstream', {
      audit: role({ api_key: sealSecret('sk-plain-0123456789') }),
      fix: null,
    });
    expect(readSettings(db).upstream.audit?.api_key).toEqual({
      box: 'plain',
      data: 'sk-plain-0123456789',
    });
  });

  it('masks keys as sk-…abcd and short ones entirely', () => {
    expect(maskSecret('sk-proj-0123456789abcd')).toBe('sk-…abcd');
    expect(maskSecret('short-key')).toBe('…');
  });
});
