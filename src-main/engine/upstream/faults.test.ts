import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { NO_CONVENTIONS } from '../conventions.ts';
import { auditSamples } from '../operations.ts';
import { createRolesBackend } from './backend.ts';
import { MALFORMED_RETRIES } from './client.ts';
import type { UpstreamConfig } from './config.ts';
import {
  closedPort,
  completion,
  failure,
  startFakeUpstream,
  type FakeUpstream,
  type Reply,
} from './testing/fake-upstream.ts';

/** Every upstream fault, through a real HTTP server, to the AppError the routes translate. */

const servers: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const KEY = 'sk-secret-0123456789abcdef';
const sample: Sample = { task_type: 'text', text: 'A short and clean sentence.' };

async function auditWith(
  reply: (index: number) => Reply,
  over: Partial<UpstreamConfig> = {},
  signal?: AbortSignal,
): Promise<{ error: AppError; server: FakeUpstream | undefined; ms: number }> {
  let server: FakeUpstream | undefined;
  let baseURL = over.baseURL;
  if (baseURL === undefined) {
    server = await startFakeUpstream((_request, index) => reply(index));
    servers.push(server);
    baseURL = server.url;
  }
  const config: UpstreamConfig = {
    model: 'fake-model',
    apiKey: KEY,
    timeoutMs: 5000,
    concurrency: 1,
    ...over,
    baseURL,
  };
  const backend = createRolesBackend({
    audit: { kind: 'upstream', config },
    fix: { kind: 'builtin' },
  });
  const started = performance.now();
  const error = await auditSamples(
    [sample],
    { votes: 1 },
    {
      backend,
      conventions: NO_CONVENTIONS,
      signal,
    },
  ).then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).message).not.toContain(KEY);
  return { error: error as AppError, server, ms: performance.now() - started };
}

describe('upstream faults', () => {
  it('500 -> service_error, not retried', async () => {
    const { error, server } = await auditWith(() => failure(500, 'model crashed'));
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/failed: 500 model crashed/);
    expect(server?.requests).toHaveLength(1);
  });

  it('503 -> one more try, then service_error', async () => {
    const { error, server } = await auditWith(() => failure(503, 'loading model'));
    expect(error.code).toBe('service_error');
    expect(server?.requests).toHaveLength(2);
  });

  it('a 503 then an answer succeeds', async () => {
    const server = await startFakeUpstream((_r, index) =>
      index === 0
        ? failure(503, 'loading')
        : completion({
            fluency: { passed: true, issues: [] },
            coherence: { passed: true, issues: [] },
            formatting: { passed: true, issues: [] },
            safety: { passed: true, issues: [] },
          }),
    );
    servers.push(server);
    const backend = createRolesBackend({
      audit: {
        kind: 'upstream',
        config: { baseURL: server.url, model: 'm', apiKey: null, timeoutMs: 5000, concurrency: 1 },
      },
      fix: { kind: 'builtin' },
    });
    const { blocks } = await auditSamples(
      [sample],
      { votes: 1 },
      {
        backend,
        conventions: NO_CONVENTIONS,
      },
    );
    expect(blocks[0]?.passed).toBe(true);
  });

  it('429 -> rate_limit_exceeded with the upstream Retry-After, not retried', async () => {
    const { error, server } = await auditWith(() =>
      failure(429, 'slow down', { 'retry-after': '17' }),
    );
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.retryAfterSeconds).toBe(17);
    expect(server?.requests).toHaveLength(1);
  });

  it('401 -> service_error naming the key problem without the key', async () => {
    const { error } = await auditWith(() => failure(401, `Incorrect API key provided: ${KEY}`));
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/refused the API key/);
    expect(error.message).toContain('[key]');
    expect(error.cause).toBeUndefined(); // the SDK's error repeats the key: it is not kept
  });

  it('404 -> service_error about the model or the base URL', async () => {
    const { error } = await auditWith(() => failure(404, 'model "nope" not found'));
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/no such model, or no chat completions under this base URL/);
  });

  it(`junk -> asked ${MALFORMED_RETRIES} more times, then service_error`, async () => {
    const { error, server } = await auditWith(() => ({
      text: '<html><body>Bad gateway</body></html>',
      contentType: 'text/html',
    }));
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(
      /no usable answer in 3 tries: the response is not a chat completion/,
    );
    expect(server?.requests).toHaveLength(1 + MALFORMED_RETRIES);
  });

  it('a JSON content type with a broken body -> service_error after the retries', async () => {
    const { error, server } = await auditWith(() => ({
      text: '{"choices": [',
      contentType: 'application/json',
    }));
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/the response body is not JSON/);
    expect(server?.requests).toHaveLength(3);
  });

  it('malformed verdict JSON every time -> service_error', async () => {
    const { error, server } = await auditWith(() => completion({ verdict: 'fine' }));
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/does not match the schema/);
    expect(server?.requests).toHaveLength(3);
  });

  it('slower than the timeout -> service_error, promptly', async () => {
    const { error, server, ms } = await auditWith(() => ({ ...completion({}), delayMs: 3000 }), {
      timeoutMs: 200,
    });
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/did not answer within 0.2 s/);
    expect(ms).toBeLessThan(2000);
    expect(server?.requests).toHaveLength(1);
  });

  it('a refused connection -> service_error, not retried', async () => {
    const port = await closedPort();
    const { error } = await auditWith(() => completion({}), {
      baseURL: `http://127.0.0.1:${port}/v1`,
    });
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/connection refused; is it running\?/);
  });

  it('a dropped connection -> one more try, then service_error', async () => {
    const { error, server } = await auditWith(() => ({ destroy: true }));
    expect(error.code).toBe('service_error');
    expect(error.message).toMatch(/lost the connection/);
    expect(server?.requests).toHaveLength(2);
  });

  it('our caller going away aborts the upstream request -> cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const { error, server, ms } = await auditWith(
      () => ({ ...completion({}), delayMs: 3000 }),
      {},
      controller.signal,
    );
    expect(error.code).toBe('cancelled');
    expect(ms).toBeLessThan(2000);
    // The scripted server sees the socket close a moment later (later still on a busy machine).
    await vi.waitFor(() => expect(server?.abandoned).toBe(1), { timeout: 2000, interval: 10 });
  });

  it('a misconfigured role fails its requests with service_error', async () => {
    const backend = createRolesBackend({
      audit: { kind: 'unavailable', message: 'SVC_UPSTREAM_URL is not a URL: "nope"' },
      fix: { kind: 'builtin' },
    });
    const error = await auditSamples(
      [sample],
      { votes: 1 },
      {
        backend,
        conventions: NO_CONVENTIONS,
      },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'service_error',
      message: 'svc-audit-1 cannot run: SVC_UPSTREAM_URL is not a URL: "nope"',
    });
  });
});
