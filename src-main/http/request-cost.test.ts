import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from './testing/test-app.ts';

/**
 * What a billed request costs the store (issue 14): the settings are read
 * once, when the request comes in, and handed down; once the routes are warm
 * no statement is prepared again (each connection keeps its own).
 */
describe('the store work of a billed request', () => {
  const sample = { task_type: 'text', text: 'A short and clean sentence.' };
  const chat = (model: string) => ({
    model,
    messages: [{ role: 'user', content: JSON.stringify([sample]) }],
  });
  const calls = [
    ['/v1/chat/completions', chat('svc/audit-1')],
    ['/v1/chat/completions', chat('svc/fix-1')],
    ['/v1/responses', { model: 'svc/audit-1', input: JSON.stringify([sample]) }],
    ['/audit', { data: [sample] }],
    ['/fix', { data: [sample] }],
  ] as const;

  it('reads the settings once per request', async () => {
    const app = createTestApp();
    const key = app.key();
    const settings = vi.spyOn(app.ctx, 'settings');
    for (const [path, body] of calls) {
      settings.mockClear();
      const res = await app.post(path, body, key);
      expect(res.status, path).toBe(200);
      expect(settings, path).toHaveBeenCalledTimes(1);
    }
  });

  it('prepares no statement once the routes are warm', async () => {
    const app = createTestApp();
    const key = app.key();
    for (const [path, body] of calls) expect((await app.post(path, body, key)).status).toBe(200);
    const prepare = vi.spyOn(app.db, 'prepare');
    for (const [path, body] of calls) expect((await app.post(path, body, key)).status).toBe(200);
    expect(prepare).not.toHaveBeenCalled();
  });
});
