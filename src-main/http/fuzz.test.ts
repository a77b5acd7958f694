import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HTTP_ROUTES } from '../../src-shared/http-routes.ts';
import { MAX_METADATA_DEPTH } from '../../src-shared/nesting.ts';
import { OWNER_METHODS } from '../../src-shared/owner-api.ts';
import { NativeError } from '../../src-shared/schemas/native.ts';
import { OpenAIErrorBody } from '../../src-shared/schemas/openai.ts';
import { balances, ledgerEntries } from '../service/billing/billing.ts';
import { DEFAULT_SETTINGS } from '../../src-shared/schemas/settings.ts';
import { writeSettingsSection } from '../store/settings.ts';
import { createTestApp } from './testing/test-app.ts';

/**
 * Hostile bodies against every route, seeded so a failure replays: deep
 * nesting, numbers past a double, lone surrogates, prototype keys, wrong
 * content types, truncated JSON. Whatever arrives, no answer is a 5xx and a
 * refusal costs nothing (no charge, no hold left open).
 */

const SEED = 20261124;
/** Answers by status, so a run that only ever hit one door would be seen. */
const statuses = new Map<number, number>();

/** Raw JSON text nested `depth` levels, as arrays, objects or a mix. */
const nested = (depth: number, kind: 'array' | 'object' | 'mixed'): string => {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const object = kind === 'object' || (kind === 'mixed' && i % 2 === 1);
    open += object ? '{"k":' : '[';
    close = (object ? '}' : ']') + close;
  }
  return `${open}1${close}`;
};

/** A JSON fragment chosen to hurt a parser, a validator or a serialiser. */
const hostileFragment: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: MAX_METADATA_DEPTH - 2, max: 12_000 }),
      fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed'),
    )
    .map(([depth, kind]) => nested(depth, kind)),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1.7976931348623157e308',
    '123456789012345678901234567890123456789',
    '-0',
    '5e-324',
    '"\\ud800"',
    '"a\\udfffb"',
    '"\\udc00\\ud800"',
    '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"__proto__": null, "task_type": "text", "text": "x"}',
    'null',
    'true',
    '[]',
    '{}',
    '""',
    '"\\u0000"',
  ),
  fc.string({ maxLength: 40 }).map((s) => JSON.stringify(s)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
);

const sampleWith = (slot: string, fragment: string): string =>
  ({
    meta: `{"task_type":"text","text":"A short sentence.","meta":${fragment}}`,
    text: `{"task_type":"text","text":${fragment}}`,
    choices: `{"task_type":"multiple_choice","context":"Q?","choices":${fragment},"answer_index":0}`,
    answer: `{"task_type":"multiple_choice","context":"Q?","choices":["a","b"],"answer_index":${fragment}}`,
    messages: `{"task_type":"conversation","messages":${fragment}}`,
    whole: fragment,
  })[slot] ?? fragment;

/** The samples' JSON text with a hostile fragment in one place. */
const samplesText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('meta', 'text', 'choices', 'answer', 'messages', 'whole'), hostileFragment)
  .map(([slot, fragment]) => `[${sampleWith(slot, fragment)}]`);

type Body = { path: string; text: string };

const nativeBody = fc
  .tuple(
    fc.constantFrom('/audit', '/fix', '/refine'),
    samplesText,
    hostileFragment,
    fc.constantFrom('data', 'config', 'root'),
  )
  .map(([path, samples, fragment, where]): Body => {
    if (where === 'root') return { path, text: fragment };
    if (where === 'config') return { path, text: `{"data":${samples},"config":${fragment}}` };
    return { path, text: `{"data":${samples}}` };
  });

const v1Body = fc
  .tuple(
    fc.constantFrom('svc/audit-1', 'svc/fix-1', 'svc/refine-1', 'svc/audit'),
    samplesText,
    hostileFragment,
    fc.constantFrom('content', 'messages', 'extra', 'root', 'stream'),
    fc.constantFrom('/v1/chat/completions', '/v1/responses'),
  )
  .map(([model, samples, fragment, where, path]): Body => {
    const chat = path === '/v1/chat/completions';
    const message = (content: string) =>
      chat
        ? `"messages":[{"role":"user","content":${content}}]`
        : `"input":[{"role":"user","content":${content}}]`;
    switch (where) {
      case 'root':
        return { path, text: fragment };
      case 'messages':
        return {
          path,
          text: `{"model":"${model}",${chat ? '"messages"' : '"input"'}:${fragment}}`,
        };
      case 'extra':
        return {
          path,
          text: `{"model":"${model}",${message(JSON.stringify(samples))},"extra":${fragment}}`,
        };
      case 'stream':
        return {
          path,
          text: `{"model":"${model}",${message(JSON.stringify(samples))},"stream":true}`,
        };
      default:
        return { path, text: `{"model":"${model}",${message(JSON.stringify(samples))}}` };
    }
  });

const ownerBody = fc
  .tuple(fc.constantFrom(...OWNER_METHODS), hostileFragment)
  .map(([method, fragment]): Body => ({ path: `/owner/${method}`, text: fragment }));

/** Cuts a body short, or changes its declared type, or leaves it be. */
const mangled = (bodies: fc.Arbitrary<Body>) =>
  fc
    .tuple(
      bodies,
      fc.oneof(
        { arbitrary: fc.constant('application/json'), weight: 8 },
        fc.constantFrom(
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          null,
        ),
      ),
      // a fifth of the bodies are cut short
      fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 4 },
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
    )
    .map(([body, contentType, cut]) => ({
      ...body,
      contentType,
      text: cut === undefined ? body.text : body.text.slice(0, Math.floor(body.text.length * cut)),
    }));

async function expectNoServerErrorAndNoChargeOnRefusal(
  app: ReturnType<typeof createTestApp>,
  body: Body & { contentType: string | null },
  headers: Record<string, string>,
): Promise<void> {
  const before = balances(app.db, 1);
  const chargesBefore = ledgerEntries(app.db, 1, { limit: 1 })[0]?.id;
  const res = await app.request(body.path, {
    method: 'POST',
    headers: { ...headers, ...(body.contentType ? { 'content-type': body.contentType } : {}) },
    body: body.text,
  });
  const raw = await res.text();
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  const label = `${res.status} ${body.path} ${body.contentType}: ${body.text.slice(0, 160)}`;
  expect(res.status, label).toBeLessThan(500);
  const after = balances(app.db, 1);
  expect(after.held_micro, label).toBe(0);
  if (res.status !== 200) {
    expect(after, label).toEqual(before);
    const json = JSON.parse(raw) as unknown;
    if (body.path.startsWith('/v1')) OpenAIErrorBody.parse(json);
    else NativeError.parse(json);
  } else if (
    !body.path.startsWith('/owner') &&
    !raw.startsWith('data:') &&
    !raw.startsWith('event:') &&
    !raw.startsWith(':')
  ) {
    // a plain 200 was charged exactly once, what its body says
    const entries = ledgerEntries(app.db, 1, { limit: 3 });
    expect(entries[0]?.id, label).not.toBe(chargesBefore);
  }
}

describe('hostile bodies on every route', () => {
  it('the fuzzed routes are every POST route of the interface and the owner API', () => {
    const posts = HTTP_ROUTES.filter((r) => r.method === 'post').map((r) => r.path);
    expect(new Set(posts)).toEqual(
      new Set(['/audit', '/fix', '/refine', '/v1/chat/completions', '/v1/responses']),
    );
  });

  it('key routes: no 5xx, nothing charged for a refusal, no hold left open', async () => {
    const app = createTestApp({ keepAliveMs: 1000 });
    // The fuzz is about bodies, not about the per-minute allowance.
    writeSettingsSection(app.db, 'limits', {
      ...DEFAULT_SETTINGS.limits,
      requests_per_minute_native: 100_000,
      requests_per_minute_v1: 100_000,
    });
    const key = app.key();
    statuses.clear();
    await fc.assert(
      fc.asyncProperty(mangled(fc.oneof(nativeBody, v1Body)), (body) =>
        expectNoServerErrorAndNoChargeOnRefusal(app, body, { authorization: `Bearer ${key}` }),
      ),
      { seed: SEED, numRuns: 400 },
    );
    // Most bodies are refused, but enough are valid to exercise the work and the charge.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(20);
    expect(statuses.get(429) ?? 0).toBe(0);
    console.log('key routes, answers by status:', Object.fromEntries(statuses));
  }, 120_000);

  it('owner routes: no 5xx', async () => {
    const app = createTestApp();
    const token = app.sessions.issueToken();
    const signIn = await app.request(`/?token=${token}`);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    statuses.clear();
    await fc.assert(
      fc.asyncProperty(mangled(ownerBody), (body) =>
        expectNoServerErrorAndNoChargeOnRefusal(app, body, {
          cookie,
          origin: 'http://127.0.0.1:7331',
        }),
      ),
      { seed: SEED, numRuns: 300 },
    );
    expect(statuses.get(401) ?? 0).toBe(0); // the session held: the bodies reached the handlers
    console.log('owner routes, answers by status:', Object.fromEntries(statuses));
  }, 120_000);
});

describe('the nesting limit of passthrough metadata', () => {
  const deepSample = (depth: number) =>
    `{"task_type":"text","text":"A short sentence.","meta":${nested(depth, 'mixed')}}`;

  it(`${MAX_METADATA_DEPTH} levels pass; one more is refused before any work, on every route`, async () => {
    const app = createTestApp();
    const key = app.key();
    const post = (path: string, text: string) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: text,
      });
    const ok = await post('/audit', `{"data":[${deepSample(MAX_METADATA_DEPTH)}]}`);
    expect(ok.status).toBe(200);
    const before = balances(app.db, 1);
    const entries = ledgerEntries(app.db, 1, { limit: 1 })[0]?.id;
    for (const depth of [MAX_METADATA_DEPTH + 1, 5_000]) {
      const native = await post('/audit', `{"data":[${deepSample(depth)}]}`);
      expect(native.status).toBe(422);
      const error = NativeError.parse(await native.json());
      expect(error.detail).toMatch(new RegExp(`deeper than ${MAX_METADATA_DEPTH} levels`));
      expect(error.errors?.[0]?.path).toMatch(/^\/data\/0\/meta/);
      for (const path of ['/v1/chat/completions', '/v1/responses']) {
        const content = JSON.stringify(`[${deepSample(depth)}]`);
        const text =
          path === '/v1/responses'
            ? `{"model":"svc/audit-1","input":${content}}`
            : `{"model":"svc/audit-1","messages":[{"role":"user","content":${content}}]}`;
        const v1 = await post(path, text);
        expect(v1.status).toBe(400);
        expect(OpenAIErrorBody.parse(await v1.json()).error.code).toBe('invalid_request');
      }
    }
    // nothing was held or charged for the refusals
    expect(balances(app.db, 1)).toEqual(before);
    expect(ledgerEntries(app.db, 1, { limit: 1 })[0]?.id).toBe(entries);
  });
});
