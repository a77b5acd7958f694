import { describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';
import { EncodedJson } from '../../service/owner/encoded-json.ts';
import type { OwnerHandlers } from '../../service/owner/handler-types.ts';
import { OwnerSessions, SESSION_COOKIE } from '../owner-session.ts';
import { ownerRoutes } from './owner.ts';

/** `POST /owner/<method>` sends an answer encoded by another thread as its bytes, unchanged. */
describe('owner routes', () => {
  const detail = { index: 4, original: { id: 12345678901234567890n, text: 'x'.repeat(1000) } };
  const json = JSON.stringify(detail);
  const handlers = {
    datasetRow: () => Promise.resolve(new EncodedJson(new TextEncoder().encode(json))),
    serverStatus: () => Promise.resolve({ running: true, n: 12345678901234567890n }),
  } as unknown as OwnerHandlers;
  const sessions = new OwnerSessions();
  const session = sessions.redeem(sessions.issueToken()) ?? '';
  const app = ownerRoutes(handlers, sessions);
  const post = (method: string, body: unknown) =>
    app.request(`/owner/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${session}` },
      body: JSON.stringify(body),
    });

  it('answers encoded JSON with its bytes as the body', async () => {
    const res = await post('datasetRow', { dataset_id: 'ds_1', index: 4 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    expect(text).toBe(json);
    expect(parseJsonExact(text)).toEqual(detail);
  });

  it('answers a value as JSON', async () => {
    const res = await post('serverStatus', {});
    expect(res.status).toBe(200);
    expect(parseJsonExact(await res.text())).toEqual({ running: true, n: 12345678901234567890n });
  });
});
