import { describe, expect, it } from 'vitest';
import { ServerStatus } from '../../src-shared/owner-api.ts';
import { openDatabase } from '../store/db.ts';
import { createServiceContext } from './context.ts';
import { dispatchOwnerCall, isOwnerMethod } from './owner-dispatch.ts';
import { createOwnerHandlers } from './owner-handlers.ts';

const handlers = () =>
  createOwnerHandlers(createServiceContext(openDatabase(':memory:'), ':memory:', '1.2.3'), () => ({
    host: '127.0.0.1',
    port: null,
    url: null,
  }));

describe('dispatchOwnerCall (the IPC edge)', () => {
  it('returns the value on success', async () => {
    const result = await dispatchOwnerCall(handlers(), 'serverStatus', {});
    expect(result.ok).toBe(true);
    if (result.ok) {
      const status = ServerStatus.parse(result.value);
      expect(status.running).toBe(false);
      expect(status.version).toBe('1.2.3');
    }
  });
  it('returns invalid input as an error value, never throwing', async () => {
    const result = await dispatchOwnerCall(handlers(), 'serverStatus', { nope: true });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
  it('reports an unexpected failure as internal_error', async () => {
    const broken = { ...handlers(), serverStatus: () => Promise.reject(new Error('boom')) };
    const result = await dispatchOwnerCall(broken, 'serverStatus', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal_error' } });
  });
  it('knows its methods', () => {
    expect(isOwnerMethod('serverStatus')).toBe(true);
    expect(isOwnerMethod('__proto__')).toBe(false);
  });
});
