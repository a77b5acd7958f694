import { afterEach, describe, expect, it, vi } from 'vitest';
import { NativeError } from '../../src-shared/schemas/native.ts';
import { ChatCompletionChunk, OpenAIErrorBody } from '../../src-shared/schemas/openai.ts';
import { DEFAULT_UPSTREAM_CONCURRENCY } from '../../src-shared/schemas/settings.ts';
import type { EngineBackend } from '../engine/backend.ts';
import { createRolesBackend } from '../engine/upstream/backend.ts';
import type { UpstreamConfig } from '../engine/upstream/config.ts';
import {
  closedPort,
  completion,
  failure,
  startFakeUpstream,
  type FakeUpstream,
  type Reply,
} from '../engine/upstream/testing/fake-upstream.ts';
import { balances, ledgerEntries } from '../service/billing/billing.ts';
import { createServiceContext } from '../service/context/service-context.ts';
import { createKey } from '../service/billing/keys.ts';
import { openDatabase } from '../store/db.ts';
import { writeSettingsSection } from '../store/settings.ts';
import { type RunningServer, startServer } from './server.ts';
import { parseSse } from './testing/sse.ts';
import { createTestApp } from './testing/test-app.ts';

/**
 * The upstream's faults through the real HTTP app: each reaches the client
 * with its documented status, and the one-cent hold is released (nothing
 * charged). Success is billed from the upstream's own token counts.
 */

const servers: FakeUpstream[] = [];
let running: RunningServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await running?.close();
  running = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const clean = { passed: true, issues: [] };
const verdicts = { fluency: clean, coherence: clean, formatting: clean, safety: clean };
const text = { task_type: 'text', text: 'A short and clean sentence.' };

/** A key holder's error text names no model server: no address, port, path or model. */
function expectNoUpstreamDetails(message: string): void {
  expect(message).not.toMatch(/127\.0\.0\.1|localhost|https?:|\/v1|fake-model|:\d{2,5}\b/);
  expect(message.length).toBeGreaterThan(10);
}

async function fake(reply: (index: number) => Reply): Promise<FakeUpstream> {
  const server = await startFakeUpstream((_request, index) => reply(index));
  servers.push(server);
  return server;
}

const config = (baseURL: string, over: Partial<UpstreamConfig> = {}): UpstreamConfig => ({
  baseURL,
  model: 'fake-model',
  apiKey: null,
  timeoutMs: 5000,
  concurrency: 1,
  ...over,
});

const backendFor = (baseURL: string, over: Partial<UpstreamConfig> = {}): EngineBackend =>
  createRolesBackend({
    audit: { kind: 'upstream', config: config(baseURL, over) },
    fix: { kind: 'upstream', config: config(baseURL, over) },
  });

const chat = (content: unknown, extra: Record<string, unknown> = {}) => ({
  model: 'svc/audit-1',
  messages: [{ role: 'user', content: JSON.stringify(content) }],
  ...extra,
});

interface Case {
  name: string;
  reply: (index: number) => Reply;
  over?: Partial<UpstreamConfig>;
  refused?: boolean;
  status: number;
  code: string;
  retryAfter?: string;
}

const CASES: Case[] = [
  { name: 'a 500', reply: () => failure(500, 'boom'), status: 502, code: 'service_error' },
  {
    name: 'junk',
    reply: () => ({ text: 'not a completion', contentType: 'text/plain' }),
    status: 502,
    code: 'service_error',
  },
  {
    name: 'malformed verdicts',
    reply: () => completion({ nope: true }),
    status: 502,
    code: 'service_error',
  },
  {
    name: 'a timeout',
    reply: () => ({ ...completion(verdicts), delayMs: 2000 }),
    over: { timeoutMs: 150 },
    status: 502,
    code: 'service_error',
  },
  {
    name: 'a refused connection',
    reply: () => completion(verdicts),
    refused: true,
    status: 502,
    code: 'service_error',
  },
  {
    name: 'a 429',
    reply: () => failure(429, 'slow down', { 'retry-after': '9' }),
    status: 429,
    code: 'rate_limit_exceeded',
    retryAfter: '9',
  },
];

async function baseUrlFor(c: Case): Promise<string> {
  if (c.refused) return `http://127.0.0.1:${await closedPort()}/v1`;
  return (await fake(c.reply)).url;
}

describe('upstream faults through the native routes', () => {
  it.each(CASES)('$name -> $status $code, the hold released', async (c) => {
    const app = createTestApp({ backend: backendFor(await baseUrlFor(c), c.over) });
    const key = app.key();
    const before = balances(app.db, 1);
    const res = await app.post('/audit', { data: [text] }, key);
    expect(res.status).toBe(c.status);
    expect(res.headers.get('retry-after')).toBe(c.retryAfter ?? null);
    const body = NativeError.parse(await res.json());
    expect(body.code).toBe(c.code);
    expectNoUpstreamDetails(body.detail);
    expect(balances(app.db, 1)).toEqual(before);
    expect(ledgerEntries(app.db, 1, { limit: 1 })[0]?.kind).toBe('release');
  });
});

describe('upstream faults through /v1/chat/completions', () => {
  it.each(CASES)('$name -> $status $code, the hold released', async (c) => {
    const app = createTestApp({ backend: backendFor(await baseUrlFor(c), c.over) });
    const key = app.key();
    const before = balances(app.db, 1);
    const res = await app.post('/v1/chat/completions', chat([text]), key);
    expect(res.status).toBe(c.status);
    expect(res.headers.get('retry-after')).toBe(c.retryAfter ?? null);
    const { error } = OpenAIErrorBody.parse(await res.json());
    expect(error.code).toBe(c.code);
    expectNoUpstreamDetails(error.message);
    expect(balances(app.db, 1)).toEqual(before);
  });

  it('a streamed request sends keepalives while the upstream is slow, and bills its usage', async () => {
    const upstream = await fake(() => ({
      ...completion(verdicts, { prompt_tokens: 321, completion_tokens: 45 }),
      delayMs: 250,
    }));
    const app = createTestApp({ backend: backendFor(upstream.url), keepAliveMs: 30 });
    const res = await app.post('/v1/chat/completions', chat([text], { stream: true }), app.key());
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    expect(events.filter((e) => 'comment' in e).length).toBeGreaterThanOrEqual(3);
    const data = events.flatMap((e) => ('data' in e ? [e.data] : []));
    expect(data.at(-1)).toBe('[DONE]');
    const last = ChatCompletionChunk.parse(JSON.parse(data.at(-2)!));
    expect(last.usage).toMatchObject({
      prompt_tokens: 321,
      completion_tokens: 45,
      total_tokens: 366,
    });
    expect(ledgerEntries(app.db, 1, { limit: 1 })[0]?.kind).toBe('charge');
  });

  it('a streamed request reports an upstream failure in the stream and charges nothing', async () => {
    const upstream = await fake(() => ({ ...failure(500, 'boom'), delayMs: 100 }));
    const app = createTestApp({ backend: backendFor(upstream.url), keepAliveMs: 30 });
    const key = app.key();
    const before = balances(app.db, 1);
    const res = await app.post('/v1/chat/completions', chat([text], { stream: true }), key);
    const data = parseSse(await res.text()).flatMap((e) => ('data' in e ? [e.data] : []));
    expect(data.at(-1)).toBe('[DONE]');
    const { error } = OpenAIErrorBody.parse(JSON.parse(data.at(-2)!));
    expect(error.code).toBe('service_error');
    expectNoUpstreamDetails(error.message);
    expect(balances(app.db, 1)).toEqual(before);
  });

  it('a client that disconnects aborts the upstream request and is not charged', async () => {
    const upstream = await fake(() => ({ ...completion(verdicts), delayMs: 3000 }));
    const app = createTestApp({ backend: backendFor(upstream.url), keepAliveMs: 30 });
    const key = app.key();
    const before = balances(app.db, 1);
    const controller = new AbortController();
    const res = await app.app.request('http://127.0.0.1:7331/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(chat([text], { stream: true })),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstream.requests).toHaveLength(1);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(upstream.abandoned).toBe(1);
    expect(balances(app.db, 1)).toEqual(before);
    expect(ledgerEntries(app.db, 1, { limit: 1 })[0]?.kind).toBe('release');
  });
});

describe('billing from the upstream usage', () => {
  it("charges the upstream's token counts, every pass included", async () => {
    const upstream = await fake((index) =>
      completion(verdicts, { prompt_tokens: 1000 + index, completion_tokens: 200 }),
    );
    const app = createTestApp({ backend: backendFor(upstream.url) });
    const res = await app.post('/audit', { data: [text, text], config: { votes: 3 } }, app.key());
    expect(res.status).toBe(200);
    const body = (await res.json()) as { input_tokens: number; output_tokens: number };
    expect(upstream.requests).toHaveLength(6);
    expect(body.input_tokens).toBe(6 * 1000 + (0 + 1 + 2 + 3 + 4 + 5));
    expect(body.output_tokens).toBe(6 * 200);
  });
});

describe('startServer selects the backend per request', () => {
  it('from the environment, and from settings changed while it runs', async () => {
    const upstream = await fake(() => completion(verdicts));
    const db = openDatabase(':memory:');
    const ctx = createServiceContext(db, ':memory:', 'test');
    const key = createKey(db, { name: 'test' }).key;
    running = await startServer({ ctx, host: '127.0.0.1', port: 0, rendererDir: null });
    const audit = async (): Promise<number> => {
      const res = await fetch(`${running?.url}/audit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ data: [text] }),
      });
      expect(res.status).toBe(200);
      return upstream.requests.length;
    };
    expect(await audit()).toBe(0); // builtin

    writeSettingsSection(db, 'upstream', {
      audit: {
        base_url: upstream.url,
        model: 'fake-model',
        api_key: null,
        timeout_seconds: 5,
        concurrency: DEFAULT_UPSTREAM_CONCURRENCY,
      },
      fix: null,
    });
    expect(await audit()).toBe(1);
    writeSettingsSection(db, 'upstream', { audit: null, fix: null });
    expect(await audit()).toBe(1);

    vi.stubEnv('SVC_UPSTREAM_URL', upstream.url);
    vi.stubEnv('SVC_UPSTREAM_MODEL', 'fake-model');
    expect(await audit()).toBe(2);
  });
});
