import { describe, expect, it, vi } from 'vitest';
import {
  ChatCompletion,
  ChatCompletionChunk,
  OpenAIErrorBody,
} from '../../../src-shared/schemas/openai.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { gsm8k } from '../../engine/testing/real-data.ts';
import { balances, charge, ledgerEntries } from '../../service/billing/billing.ts';
import { parseSse } from '../testing/sse.ts';
import { createTestApp } from '../testing/test-app.ts';
import { writeSettingsSection } from '../../store/settings.ts';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';

const chat = (model: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [
    { role: 'system', content: 'ignored' },
    { role: 'user', content: 'ignored too' },
    { role: 'user', content: typeof content === 'string' ? content : JSON.stringify(content) },
  ],
  ...extra,
});

const completionOf = async (res: Response) => ChatCompletion.parse(await res.json());
const contentOf = (c: ChatCompletion) =>
  JSON.parse(c.choices[0]!.message.content) as Record<string, unknown>[];

/** The real builtin backend, slowed down so a stream has time to send keepalives (or to be cut). */
function slow(ms: number, fail?: Error): EngineBackend {
  return {
    id: 'slow-builtin',
    audit: async (sample, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (fail) throw fail;
      return builtinBackend.audit(sample, ctx);
    },
    proposeFix: (...args) => builtinBackend.proposeFix(...args),
  };
}

describe('/v1/chat/completions', () => {
  it('audits plain text as one text sample, with usage and finish_reason stop', async () => {
    const app = createTestApp();
    const res = await app.post(
      '/v1/chat/completions',
      chat('svc/audit-1', 'The quick brown fox.'),
      app.key(),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const completion = await completionOf(res);
    expect(completion.model).toBe('svc/audit-1');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    const [sample] = contentOf(completion);
    expect(sample).toMatchObject({
      task_type: 'text',
      text: 'The quick brown fox.',
      audit: { passed: true },
    });
    expect(completion.usage.total_tokens).toBe(
      completion.usage.prompt_tokens + completion.usage.completion_tokens,
    );
  });

  it('reports usage per engine model and the charge, so the bill can be reproduced from /pricing', async () => {
    const app = createTestApp();
    const data = gsm8k()
      .slice(0, 60)
      .map((s) => ({ ...s, answer: s.answer.replace(/<<([^=]+)=(\d+)>>/, '<<$1=1$2>>') }));
    const res = await app.post('/v1/chat/completions', chat('svc/refine-1', data), app.key());
    const { usage } = await completionOf(res);
    const audit = usage.by_model?.['svc-audit-1'];
    const fix = usage.by_model?.['svc-fix-1'];
    expect(audit && fix).toBeTruthy();
    expect((audit?.prompt_tokens ?? 0) + (fix?.prompt_tokens ?? 0)).toBe(usage.prompt_tokens);
    expect((audit?.completion_tokens ?? 0) + (fix?.completion_tokens ?? 0)).toBe(
      usage.completion_tokens,
    );
    const pricing = (await (await app.request('/pricing')).json()) as {
      models: Record<'svc-audit-1' | 'svc-fix-1', { input: number; output: number }>;
    };
    const micro =
      (audit?.prompt_tokens ?? 0) * pricing.models['svc-audit-1'].input +
      (audit?.completion_tokens ?? 0) * pricing.models['svc-audit-1'].output +
      (fix?.prompt_tokens ?? 0) * pricing.models['svc-fix-1'].input +
      (fix?.completion_tokens ?? 0) * pricing.models['svc-fix-1'].output;
    const expected = Math.max(1, Math.ceil(micro / 10_000)) / 100;
    expect(usage.cost_usd).toBe(expected);
    const charged = ledgerEntries(app.db, 1, { limit: 10 }).find((e) => e.kind === 'charge');
    expect(charged?.amount_micro).toBe(Math.round(expected * 1e6));
  });

  it('takes a bare array and an envelope with config and conventions; aliases work', async () => {
    const app = createTestApp();
    const key = app.key();
    const items = gsm8k().slice(0, 2);
    const bare = contentOf(
      await completionOf(await app.post('/v1/chat/completions', chat('svc/fix', items), key)),
    );
    expect(bare).toHaveLength(2);
    const envelope = contentOf(
      await completionOf(
        await app.post(
          '/v1/chat/completions',
          chat('svc/refine-1', {
            data: [{ task_type: 'text', text: 'Mail jo.park@gmail.com' }],
            conventions: 'E-mail addresses are fine.',
            config: { audit: { votes: 3 } },
          }),
          key,
        ),
      ),
    );
    expect(envelope[0]).toMatchObject({ audit: { passed: true, votes: 3 }, reaudit: null });
  });

  it('accepts and ignores the sampling parameters; n gives that many choices, the same', async () => {
    const app = createTestApp();
    const res = await app.post(
      '/v1/chat/completions',
      chat('svc/audit-1', 'hello', {
        temperature: 1.7,
        top_p: 0.1,
        max_tokens: 5,
        n: 3,
        tools: [],
        response_format: { type: 'json_object' },
      }),
      app.key(),
    );
    expect(res.status).toBe(200);
    // n: three choices, all the same, billed once.
    const completion = await completionOf(res);
    expect(completion.choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    const contents = new Set(completion.choices.map((choice) => choice.message.content));
    expect(contents.size).toBe(1);
    const once = await completionOf(
      await app.post('/v1/chat/completions', chat('svc/audit-1', 'hello'), app.key()),
    );
    expect(completion.usage).toEqual(once.usage);
    expect(once.choices).toHaveLength(1);
    for (const n of [0, 17]) {
      const refused = await app.post(
        '/v1/chat/completions',
        chat('svc/audit-1', 'hello', { n }),
        app.key(),
      );
      expect(refused.status).toBe(400);
    }
  });

  it('splits a request larger than a native call into batches, in order', async () => {
    const app = createTestApp();
    const data = Array.from({ length: 250 }, (_, i) => ({
      task_type: 'text',
      text: `Sample ${i}.`,
    }));
    const out = contentOf(
      await completionOf(
        await app.post('/v1/chat/completions', chat('svc/audit-1', data), app.key()),
      ),
    );
    expect(out.map((s) => s.text)).toEqual(data.map((s) => s.text));
  });

  const errorCases: [string, unknown, number, string][] = [
    ['an empty message', chat('svc/audit-1', '   '), 400, 'invalid_request'],
    [
      'no user message',
      { model: 'svc/audit-1', messages: [{ role: 'system', content: 'x' }] },
      400,
      'invalid_request',
    ],
    ['a malformed sample', chat('svc/audit-1', [{ task_type: 'text' }]), 400, 'invalid_request'],
    [
      'an unsupported task type',
      chat('svc/audit-1', [{ task_type: 'image', url: 'x' }]),
      400,
      'invalid_request',
    ],
    [
      'an option out of range',
      chat('svc/audit-1', { data: [{ task_type: 'text', text: 'x' }], config: { votes: 0 } }),
      400,
      'invalid_request',
    ],
    [
      'an option of the wrong type',
      chat('svc/fix-1', {
        data: [{ task_type: 'text', text: 'x' }],
        config: { max_attempts: '3' },
      }),
      400,
      'invalid_request',
    ],
    ['an empty envelope', chat('svc/audit-1', { data: [] }), 400, 'invalid_request'],
    ['an unknown model', chat('gpt-4o', 'hello'), 404, 'model_not_found'],
    [
      'a sample over the context',
      chat('svc/audit-1', 'word '.repeat(40_000)),
      413,
      'context_length_exceeded',
    ],
  ];
  it.each(errorCases)('%s: %i %s in the OpenAI error shape', async (_name, body, status, code) => {
    const app = createTestApp();
    const res = await app.post('/v1/chat/completions', body, app.key());
    expect(res.status).toBe(status);
    const error = OpenAIErrorBody.parse(await res.json());
    expect(error.error.code).toBe(code);
    expect(balances(app.db, 1).held_micro).toBe(0);
  });

  it.each([
    ['plain text', 'word '.repeat(40_000), '/0'],
    [
      'a bare array',
      [
        { task_type: 'text', text: 'x' },
        { task_type: 'text', text: 'word '.repeat(40_000) },
      ],
      '/1',
    ],
    ['an envelope', { data: [{ task_type: 'text', text: 'word '.repeat(40_000) }] }, '/data/0'],
  ])('points param at the oversized sample in %s', async (_form, content, param) => {
    const app = createTestApp();
    const res = await app.post('/v1/chat/completions', chat('svc/audit-1', content), app.key());
    expect(res.status).toBe(413);
    expect(OpenAIErrorBody.parse(await res.json()).error.param).toBe(param);
  });

  it('401 invalid_api_key without a key, in the OpenAI shape', async () => {
    const app = createTestApp();
    const res = await app.request('/v1/chat/completions', {
      method: 'POST',
      body: JSON.stringify(chat('svc/audit-1', 'x')),
    });
    expect(res.status).toBe(401);
    expect(OpenAIErrorBody.parse(await res.json()).error).toMatchObject({
      code: 'invalid_api_key',
      type: 'authentication_error',
    });
  });

  it('402 insufficient_quota when the balance is empty', async () => {
    const app = createTestApp();
    const key = app.key();
    const { available_micro } = balances(app.db, 1);
    charge(app.db, { accountId: 1, chargeMicro: available_micro, memo: 'test spend' });
    const res = await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key);
    expect(res.status).toBe(402);
    expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe('insufficient_quota');
  });
});

describe('/v1/chat/completions streaming', () => {
  it('sends keepalives while working, the content at the end, usage on the final chunk, then [DONE]', async () => {
    const app = createTestApp({ backend: slow(200), keepAliveMs: 40 });
    const res = await app.post(
      '/v1/chat/completions',
      chat('svc/audit-1', 'Streamed text.', { stream: true }),
      app.key(),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = parseSse(await res.text());
    expect(
      events.filter((e) => 'comment' in e && e.comment === 'keepalive').length,
    ).toBeGreaterThanOrEqual(2);
    const data = events.flatMap((e) => ('data' in e ? [e.data] : []));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => ChatCompletionChunk.parse(JSON.parse(d)));
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect((JSON.parse(content) as unknown[])[0]).toMatchObject({
      text: 'Streamed text.',
      audit: { passed: true },
    });
    // OpenAI's layout: the finish chunk, then a last chunk with no choices and the usage.
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    for (const c of chunks.slice(0, -1)) {
      expect(c.choices).toHaveLength(1);
      expect('usage' in c).toBe(false);
    }
    // the keepalives come before the content
    const firstContent = events.findIndex((e) => 'data' in e && e.data.includes('Streamed text.'));
    expect(events.findIndex((e) => 'comment' in e)).toBeLessThan(firstContent);
  });

  it('streams n choices side by side, each the same content', async () => {
    const app = createTestApp();
    const res = await app.post(
      '/v1/chat/completions',
      chat('svc/audit-1', 'Streamed twice.', { stream: true, n: 2 }),
      app.key(),
    );
    expect(res.status).toBe(200);
    const data = parseSse(await res.text()).flatMap((e) => ('data' in e ? [e.data] : []));
    const chunks = data.slice(0, -1).map((d) => ChatCompletionChunk.parse(JSON.parse(d)));
    const contentOf = (index: number): string =>
      chunks
        .flatMap((c) => c.choices.filter((choice) => choice.index === index))
        .map((choice) => choice.delta.content ?? '')
        .join('');
    expect(contentOf(0)).toContain('Streamed twice.');
    expect(contentOf(1)).toBe(contentOf(0));
    expect(chunks.at(-2)?.choices.map((choice) => choice.finish_reason)).toEqual(['stop', 'stop']);
  });

  it('with include_usage, every chunk but the last says usage: null; concatenated as LangChain does, usage counts once', async () => {
    const app = createTestApp();
    const res = await app.post(
      '/v1/chat/completions',
      chat('svc/audit-1', 'Counted once.', {
        stream: true,
        stream_options: { include_usage: true },
      }),
      app.key(),
    );
    const data = parseSse(await res.text()).flatMap((e) => ('data' in e ? [e.data] : []));
    const chunks = data.slice(0, -1).map((d) => ChatCompletionChunk.parse(JSON.parse(d)));
    for (const c of chunks.slice(0, -1)) expect(c.usage).toBeNull();
    const usage = chunks.at(-1)!.usage!;
    // LangChain merges chunk by chunk and adds the usage of every chunk that carries one.
    const summed = chunks.reduce(
      (sum, c) => ({
        prompt: sum.prompt + (c.usage?.prompt_tokens ?? 0),
        completion: sum.completion + (c.usage?.completion_tokens ?? 0),
      }),
      { prompt: 0, completion: 0 },
    );
    expect(summed).toEqual({ prompt: usage.prompt_tokens, completion: usage.completion_tokens });
    const [completion] = ledgerEntries(app.db, 1, { limit: 5 }).filter((e) => e.kind === 'charge');
    expect(completion?.amount_micro).toBe(Math.round((usage.cost_usd ?? 0) * 1e6));
  });

  it('reports a late failure as a data error event then [DONE], and charges nothing', async () => {
    const app = createTestApp({ backend: slow(60, new Error('engine exploded')), keepAliveMs: 20 });
    const before = balances(app.db, 1);
    const res = await app.post(
      '/v1/chat/completions',
      chat('svc/audit-1', 'x', { stream: true }),
      app.key(),
    );
    expect(res.status).toBe(200);
    const data = parseSse(await res.text()).flatMap((e) => ('data' in e ? [e.data] : []));
    expect(data.at(-1)).toBe('[DONE]');
    const error = OpenAIErrorBody.parse(JSON.parse(data.at(-2)!));
    expect(error.error.type).toBe('server_error');
    expect(balances(app.db, 1)).toEqual(before);
  });

  it('a client that disconnects aborts the work and is not charged', async () => {
    const app = createTestApp({ backend: slow(100), keepAliveMs: 20 });
    const before = balances(app.db, 1);
    const controller = new AbortController();
    const res = await app.app.request('http://127.0.0.1:7331/v1/chat/completions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.key()}` },
      body: JSON.stringify(
        chat(
          'svc/audit-1',
          Array.from({ length: 30 }, () => ({ task_type: 'text', text: 'x' })),
          { stream: true },
        ),
      ),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(balances(app.db, 1)).toEqual(before);
    const entries = ledgerEntries(app.db, 1, { limit: 5 });
    expect(entries[0]?.kind).toBe('release');
  });
});

describe('/v1/chat/completions limits and late billing', () => {
  it('413 context_length_exceeded when the estimated cost is above the cap', async () => {
    const app = createTestApp();
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      cost_cap_usd_per_request: 0.01,
    });
    const data = Array.from({ length: 40 }, () => ({
      task_type: 'text',
      text: 'word '.repeat(3000),
    }));
    const res = await app.post('/v1/chat/completions', chat('svc/refine-1', data), app.key());
    expect(res.status).toBe(413);
    expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe('context_length_exceeded');
  });

  it('429 rate_limit_exceeded past the per-minute limit, with Retry-After', async () => {
    const app = createTestApp();
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      requests_per_minute_v1: 2,
    });
    const key = app.key();
    for (let i = 0; i < 2; i++) {
      expect((await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key)).status).toBe(
        200,
      );
    }
    const res = await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(OpenAIErrorBody.parse(await res.json()).error).toMatchObject({
      code: 'rate_limit_exceeded',
      type: 'rate_limit_error',
    });
  });

  it('Retry-After is the whole seconds until a request would be admitted, not the window', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const app = createTestApp();
      writeSettingsSection(app.db, 'limits', {
        ...DEFAULT_SETTINGS.limits,
        requests_per_minute_v1: 2,
      });
      const key = app.key();
      const t0 = Date.parse('2026-01-01T00:00:00Z');
      vi.setSystemTime(t0);
      expect((await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key)).status).toBe(
        200,
      );
      vi.setSystemTime(t0 + 40_000);
      expect((await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key)).status).toBe(
        200,
      );
      vi.setSystemTime(t0 + 57_500);
      const refused = await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key);
      expect(refused.status).toBe(429);
      // the first request leaves the window 2.5 s later: 3 whole seconds, not 60
      expect(refused.headers.get('retry-after')).toBe('3');
      vi.setSystemTime(t0 + 60_001);
      expect((await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key)).status).toBe(
        200,
      );
      vi.setSystemTime(t0 + 60_100);
      const again = await app.post('/v1/chat/completions', chat('svc/audit-1', 'x'), key);
      // now the second (at 40 s) is the oldest in the window: 39.9 s -> 40
      expect(again.headers.get('retry-after')).toBe('40');
    } finally {
      vi.useRealTimers();
    }
  });

  it('402 after the work when the real cost overran the balance: no result, nothing charged', async () => {
    const app = createTestApp();
    const key = app.key();
    // one cent available: the hold succeeds, the settled cost (several cents) cannot be covered
    charge(app.db, {
      accountId: 1,
      chargeMicro: balances(app.db, 1).available_micro - 10_000,
      memo: 'test spend',
    });
    const data = Array.from({ length: 100 }, (_, i) => ({
      task_type: 'text',
      text: `${'Lorem ipsum dolor sit amet. '.repeat(60)} ${i}`,
    }));
    const res = await app.post('/v1/chat/completions', chat('svc/refine-1', data), key);
    expect(res.status).toBe(402);
    expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe('insufficient_quota');
    expect(balances(app.db, 1)).toEqual({
      balance_micro: 10_000,
      held_micro: 0,
      available_micro: 10_000,
    });
  });
});
