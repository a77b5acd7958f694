import { describe, expect, it } from 'vitest';
import { OpenAIErrorBody } from '../../../src-shared/schemas/openai.ts';
import {
  ResponseObject,
  ResponseStreamEvent,
} from '../../../src-shared/schemas/openai-responses.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { gsm8k } from '../../engine/testing/real-data.ts';
import { balances, ledgerEntries } from '../../service/billing/billing.ts';
import { writeSettingsSection } from '../../store/settings.ts';
import { DEFAULT_SETTINGS } from '../../../src-shared/schemas/settings.ts';
import { sseEvents } from '../testing/sse.ts';
import { createTestApp } from '../testing/test-app.ts';

const samplesOf = (r: ResponseObject) =>
  JSON.parse(r.output[0]!.content[0]!.text) as Record<string, unknown>[];

function failing(ms: number): EngineBackend {
  return {
    id: 'failing',
    audit: async () => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      throw new Error('engine exploded at http://10.0.0.7:8000/v1');
    },
    proposeFix: (...args) => builtinBackend.proposeFix(...args),
  };
}

describe('/v1/responses', () => {
  it('audits a string input as one text sample: one output_text, usage, charged once', async () => {
    const app = createTestApp();
    const before = balances(app.db, 1);
    const res = await app.post(
      '/v1/responses',
      { model: 'svc/audit-1', input: 'The quick brown fox.', instructions: 'ignored' },
      app.key(),
    );
    expect(res.status).toBe(200);
    const response = ResponseObject.parse(await res.json());
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'svc/audit-1',
      instructions: 'ignored',
    });
    expect(response.output).toHaveLength(1);
    expect(samplesOf(response)[0]).toMatchObject({
      task_type: 'text',
      text: 'The quick brown fox.',
      audit: { passed: true },
    });
    const usage = response.usage!;
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    const charges = ledgerEntries(app.db, 1, { limit: 5 }).filter((e) => e.kind === 'charge');
    expect(charges).toHaveLength(1);
    expect(charges[0]?.amount_micro).toBe(Math.round((usage.cost_usd ?? 0) * 1e6));
    expect(balances(app.db, 1).balance_micro).toBe(
      before.balance_micro - (charges[0]?.amount_micro ?? 0),
    );
  });

  it('reads the last user message of a list, as chat does; input_text parts are joined', async () => {
    const app = createTestApp();
    const items = gsm8k().slice(0, 2);
    const res = await app.post(
      '/v1/responses',
      {
        model: 'svc/fix',
        input: [
          { role: 'system', content: 'ignored' },
          { role: 'user', content: 'ignored too' },
          { type: 'function_call_output', call_id: 'x', output: 'skipped' },
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: JSON.stringify(items) }],
          },
        ],
      },
      app.key(),
    );
    expect(res.status).toBe(200);
    const samples = samplesOf(ResponseObject.parse(await res.json()));
    expect(samples).toHaveLength(2);
    expect(samples[0]).toMatchObject({ question: items[0]!.question, fix: {} });
  });

  it('refuses as chat refuses, in the OpenAI error shape, before any charge', async () => {
    const app = createTestApp();
    const key = app.key();
    const before = balances(app.db, 1);
    const cases: [unknown, number, string][] = [
      [{ model: 'svc/nope', input: 'x' }, 404, 'model_not_found'],
      [{ model: 'svc/audit-1', input: '' }, 400, 'invalid_request'],
      [
        { model: 'svc/audit-1', input: [{ role: 'assistant', content: 'x' }] },
        400,
        'invalid_request',
      ],
      [{ model: 'svc/audit-1', input: '[{"task_type":"nope"}]' }, 400, 'invalid_request'],
      [{ model: 'svc/audit-1' }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const res = await app.post('/v1/responses', body, key);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(OpenAIErrorBody.parse(await res.json()).error.code).toBe(code);
    }
    expect(balances(app.db, 1)).toEqual(before);
  });

  it('shares the per-minute allowance of /v1 with chat completions', async () => {
    const app = createTestApp();
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      requests_per_minute_v1: 2,
    });
    const key = app.key();
    const chat = { model: 'svc/audit-1', messages: [{ role: 'user', content: 'x' }] };
    expect((await app.post('/v1/chat/completions', chat, key)).status).toBe(200);
    expect(
      (await app.post('/v1/responses', { model: 'svc/audit-1', input: 'x' }, key)).status,
    ).toBe(200);
    const refused = await app.post('/v1/responses', { model: 'svc/audit-1', input: 'x' }, key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('streams the documented events in order, with the text once and usage on response.completed', async () => {
    const app = createTestApp({ keepAliveMs: 5 });
    const res = await app.post(
      '/v1/responses',
      { model: 'svc/refine-1', input: 'Mail jo.park@gmail.com now.', stream: true },
      app.key(),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const raw = sseEvents(await res.text());
    const events = raw.map((e) => ResponseStreamEvent.parse(JSON.parse(e.data)));
    // the SSE event name repeats the type, as OpenAI sends it
    raw.forEach((e, i) => expect(e.event).toBe(events[i]!.type));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const deltas = events.flatMap((e) =>
      e.type === 'response.output_text.delta' ? [e.delta] : [],
    );
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('no completion');
    expect(deltas.join('')).toBe(completed.response.output[0]!.content[0]!.text);
    expect(completed.response.usage?.total_tokens).toBeGreaterThan(0);
    const [sample] = samplesOf(completed.response);
    expect(sample).toMatchObject({ task_type: 'text', fix: {}, reaudit: {} });
  });

  it('a late failure streams an error event then response.failed, naming no upstream, charging nothing', async () => {
    const app = createTestApp({ backend: failing(30), keepAliveMs: 10 });
    const before = balances(app.db, 1);
    const res = await app.post(
      '/v1/responses',
      { model: 'svc/audit-1', input: 'x', stream: true },
      app.key(),
    );
    expect(res.status).toBe(200);
    const events = sseEvents(await res.text()).map((e) =>
      ResponseStreamEvent.parse(JSON.parse(e.data)),
    );
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'error',
      'response.failed',
    ]);
    expect(JSON.stringify(events)).not.toMatch(/10\.0\.0\.7|http:\/\//);
    expect(balances(app.db, 1)).toEqual(before);
  });
});
