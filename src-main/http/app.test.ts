import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTTP_ROUTES } from '../../src-shared/http-routes.ts';
import { OWNER_METHODS } from '../../src-shared/owner-api.ts';
import { NativeError } from '../../src-shared/schemas/native.ts';
import { ModelCard, ModelList, OpenAIErrorBody } from '../../src-shared/schemas/openai.ts';
import { PricingDocument } from '../../src-shared/schemas/pricing.ts';
import { ServerStatus } from '../../src-shared/owner-api.ts';
import { DEFAULT_SETTINGS } from '../../src-shared/schemas/settings.ts';
import { writeSettingsSection } from '../store/settings.ts';
import { createTestApp } from './testing/test-app.ts';

describe('GET /pricing', () => {
  it('answers without auth in the documented shape', async () => {
    const { request } = createTestApp();
    const res = await request('/pricing');
    expect(res.status).toBe(200);
    const body = PricingDocument.parse(await res.json());
    expect(body.models['svc-fix-1']).toEqual({ input: 1, output: 4 });
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });
});

const withKey = (app: ReturnType<typeof createTestApp>) => ({
  headers: { authorization: `Bearer ${app.key()}` },
});

describe('GET /v1/models', () => {
  it('needs a key', async () => {
    const app = createTestApp();
    const res = await app.request('/v1/models');
    expect(res.status).toBe(401);
    expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe('invalid_api_key');
  });

  it('lists the three versioned ids and no alias', async () => {
    const app = createTestApp();
    const body = ModelList.parse(await (await app.request('/v1/models', withKey(app))).json());
    expect(body.data.map((m) => m.id)).toEqual(['svc/audit-1', 'svc/fix-1', 'svc/refine-1']);
  });

  it.each([
    ['svc/audit-1', 'svc/audit-1'],
    ['svc/audit', 'svc/audit-1'],
    ['svc/refine', 'svc/refine-1'],
    ['svc%2Ffix-1', 'svc/fix-1'],
  ])('GET /v1/models/%s answers with the card of %s', async (id, expected) => {
    const app = createTestApp();
    const res = await app.request(`/v1/models/${id}`, withKey(app));
    expect(res.status).toBe(200);
    expect(ModelCard.parse(await res.json()).id).toBe(expected);
  });

  it.each(['svc/audit-2', 'gpt-4o', 'svc', '%E0%A4%A', 'svc%252Faudit'])(
    '404s model_not_found for %s',
    async (id) => {
      const app = createTestApp();
      const res = await app.request(`/v1/models/${id}`, withKey(app));
      expect(res.status).toBe(404);
      const body = OpenAIErrorBody.parse(await res.json());
      expect(body.error.code).toBe('model_not_found');
      expect(body.error.type).toBe('invalid_request_error');
    },
  );

  it("shares one per-minute allowance with chat completions (the key's /v1 family)", async () => {
    const app = createTestApp();
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      requests_per_minute_v1: 3,
    });
    const auth = withKey(app);
    for (let i = 0; i < 3; i++) expect((await app.request('/v1/models', auth)).status).toBe(200);
    const chat = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { ...auth.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc/audit-1', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(429);
    expect(chat.headers.get('x-ratelimit-remaining-requests')).toBe('0');
  });
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 at interface version 1.0.0 with every route of the table', async () => {
    const { request } = createTestApp();
    const doc = (await (await request('/openapi.json')).json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    for (const route of HTTP_ROUTES) expect(doc.paths[route.path]?.[route.method]).toBeDefined();
    for (const path of ['/audit', '/fix', '/refine', '/pricing', '/v1/chat/completions']) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
    for (const method of OWNER_METHODS) expect(doc.paths[`/owner/${method}`]?.post).toBeDefined();
    for (const name of ['Sample', 'AuditBlock', 'FixBlock', 'ChatCompletion', 'OpenAIError']) {
      expect(doc.components.schemas).toHaveProperty(name);
    }
    // Every $ref resolves inside the document.
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.slice('"#/components/schemas/'.length, -1);
      expect(doc.components.schemas, ref).toHaveProperty(name);
    }
  });
});

describe('the OpenAPI document and the routes served', () => {
  it('describes every route the server answers, the upload, events and download ones too', async () => {
    const { app, request } = createTestApp();
    const doc = (await (await request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    // Hono's table of what is served, in OpenAPI's path syntax (`:id{.+}` -> `{id}`). Middleware
    // (`ALL`) and the app's own page (`GET /`, HTML for people) are not API routes.
    const served = app.routes
      .filter((route) => route.method !== 'ALL' && route.path !== '/')
      .map((route) => ({
        method: route.method.toLowerCase(),
        path: route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}'),
      }));
    expect(served.length).toBeGreaterThan(40);
    for (const { method, path } of served) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/owner-upload']?.post?.parameters).toEqual([
      expect.objectContaining({ name: 'name', in: 'query' }),
    ]);
    expect(JSON.stringify(doc.paths['/owner-events']?.get)).toContain('text/event-stream');
    expect(doc.paths['/owner-download/{token}']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'token', in: 'path' }),
    ]);
  });
});

describe('errors', () => {
  it('answers unknown native paths with the native error shape', async () => {
    const { request } = createTestApp();
    const res = await request('/nope');
    expect(res.status).toBe(404);
    expect(NativeError.parse(await res.json()).code).toBe('not_found');
  });
  it('answers unknown /v1 paths with the OpenAI error shape', async () => {
    const { request } = createTestApp();
    const res = await request('/v1/nope');
    expect(res.status).toBe(404);
    expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe('not_found');
  });
});

describe('security', () => {
  it.each(['evil.example:7331', 'localhost.evil.example:7331', '127.0.0.1:9999'])(
    'refuses a foreign Host (DNS rebinding): %s',
    async (host) => {
      const { request } = createTestApp();
      const res = await request('/pricing', { headers: { host } });
      expect(res.status).toBe(403);
      expect(NativeError.parse(await res.json()).code).toBe('forbidden');
    },
  );
  it.each(['localhost:7331', '127.0.0.1:7331', '[::1]:7331'])('accepts Host %s', async (host) => {
    const { request } = createTestApp();
    expect((await request('/pricing', { headers: { host } })).status).toBe(200);
  });
  it('refuses a foreign Origin and sends no CORS headers', async () => {
    const app = createTestApp();
    const key = app.key();
    const res = await app.request('/v1/models', {
      headers: { origin: 'https://evil.example', authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const same = await app.request('/v1/models', {
      headers: { origin: 'http://127.0.0.1:7331', authorization: `Bearer ${key}` },
    });
    expect(same.status).toBe(200);
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('owner routes', () => {
  const signIn = async (ctx: ReturnType<typeof createTestApp>) => {
    const token = ctx.sessions.issueToken();
    const res = await ctx.request(`/?token=${token}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/svc_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    return { token, cookie: cookie.split(';')[0] ?? '' };
  };
  const call = (ctx: ReturnType<typeof createTestApp>, cookie?: string, body = '{}') =>
    ctx.request('/owner/serverStatus', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body,
    });

  it('answers 401 without a session, whatever key is presented', async () => {
    const ctx = createTestApp();
    const res = await ctx.request('/owner/serverStatus', {
      method: 'POST',
      headers: { authorization: 'Bearer svc_anything' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(NativeError.parse(await res.json()).code).toBe('unauthorized');
  });

  it('trades the one-time token for a session that opens the owner API', async () => {
    const ctx = createTestApp();
    const { token, cookie } = await signIn(ctx);
    const res = await call(ctx, cookie);
    expect(res.status).toBe(200);
    const status = ServerStatus.parse(await res.json());
    expect(status.url).toBe('http://127.0.0.1:7331');
    expect(status.models).toHaveLength(3);
    // The token works once only.
    const again = await ctx.request(`/?token=${token}`);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(again.headers.get('location')).toBe('/#/signed-out');
  });

  it('validates owner input: malformed JSON and unknown members are 422', async () => {
    const ctx = createTestApp();
    const { cookie } = await signIn(ctx);
    const broken = await call(ctx, cookie, '{not json');
    expect(broken.status).toBe(422);
    expect(NativeError.parse(await broken.json()).detail).toMatch(/malformed JSON/);
    const extra = await call(ctx, cookie, '{"surprise": 1}');
    expect(extra.status).toBe(422);
  });
});

describe('the renderer', () => {
  it('says how to build it when it is missing', async () => {
    const { request } = createTestApp({ rendererDir: null });
    const res = await request('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
  });
  it('serves the built renderer with a CSP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-renderer-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>svc</title>');
    const { request } = createTestApp({ rendererDir: dir });
    const res = await request('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>svc</title>');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('the body-size cap', () => {
  const body = JSON.stringify({ model: 'svc/audit-1', messages: [] });
  const chunkedOver = (): ReadableStream<Uint8Array> => {
    const chunk = new Uint8Array(1024 * 1024).fill(32);
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        if (sent++ > 33) controller.close();
        else controller.enqueue(chunk);
      },
    });
  };

  it('refuses a declared length over 32 MiB before reading the body: 413', async () => {
    const app = createTestApp();
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${app.key()}`,
        'content-length': String(33 * 1024 * 1024),
      },
      body,
    });
    expect(res.status).toBe(413);
    expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe('payload_too_large');
  });

  it('refuses a chunked body once it passes 32 MiB: 413', async () => {
    const app = createTestApp();
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.key()}` },
      body: chunkedOver(),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe('payload_too_large');
  });

  it('lets a declared length under the cap through', async () => {
    const app = createTestApp();
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${app.key()}`, 'content-length': String(body.length) },
      body,
    });
    expect(res.status).not.toBe(413);
  });
});
