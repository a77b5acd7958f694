import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import { ipcChannel, OWNER_METHODS, ServerStatus } from '../../src-shared/owner-api.ts';
import { createHarness } from '../service/datasets/testing/harness.ts';
import { registerOwnerHandlers, type IpcRegistrar } from './ipc-handlers.ts';

const APP_PAGE = 'file:///opt/svc/resources/app/out/renderer/index.html';

type Listener = Parameters<IpcRegistrar['handle']>[1];

/** Registers the real handlers on a registrar that records them, as ipcMain would. */
function register(): Map<string, Listener> {
  const channels = new Map<string, Listener>();
  const { handlers } = createHarness({
    version: '9.9.9',
    address: { host: '127.0.0.1', port: 7331, url: 'http://127.0.0.1:7331' },
  });
  registerOwnerHandlers(
    { handle: (channel, listener) => void channels.set(channel, listener) },
    handlers,
    (url) => url.split('#')[0] === APP_PAGE,
  );
  return channels;
}

const from = (url: string, parent: unknown = null) =>
  ({ senderFrame: { url, parent } }) as unknown as IpcMainInvokeEvent;

describe('the IPC edge', () => {
  const channels = register();

  it('has exactly one channel per owner method, and nothing else', () => {
    expect([...channels.keys()].sort()).toEqual(OWNER_METHODS.map(ipcChannel).sort());
  });

  it('answers the app page with the handler value', async () => {
    const result = (await channels.get('svc:serverStatus')?.(from(`${APP_PAGE}#/server`), {})) as {
      ok: boolean;
      value: unknown;
    };
    expect(result.ok).toBe(true);
    expect(ServerStatus.parse(result.value)).toMatchObject({
      url: 'http://127.0.0.1:7331',
      version: '9.9.9',
    });
  });

  it('refuses other pages and frames inside the app page', async () => {
    for (const event of [
      from('https://example.com/'),
      from('file:///tmp/evil.html'),
      from(APP_PAGE, { url: APP_PAGE }),
      { senderFrame: null } as unknown as IpcMainInvokeEvent,
    ]) {
      expect(await channels.get('svc:listKeys')?.(event, {})).toMatchObject({
        ok: false,
        error: { code: 'forbidden' },
      });
    }
  });

  it('validates input and returns errors as values', async () => {
    expect(await channels.get('svc:createKey')?.(from(APP_PAGE), { name: 7 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await channels.get('svc:revokeKey')?.(from(APP_PAGE), { id: 'key_nope' })).toMatchObject(
      {
        ok: false,
        error: { code: 'not_found' },
      },
    );
  });

  it('runs a whole owner flow: create a key, list it, revoke it', async () => {
    const call = async (method: string, input: unknown) =>
      (await channels.get(`svc:${method}`)?.(from(APP_PAGE), input)) as {
        ok: true;
        value: Record<string, unknown>;
      };
    const created = await call('createKey', { name: 'ipc' });
    expect(created.ok).toBe(true);
    const record = created.value['record'] as { id: string };
    const listed = (await call('listKeys', {})).value as unknown as { id: string }[];
    expect(listed.map((k) => k.id)).toContain(record.id);
    const revoked = await call('revokeKey', { id: record.id });
    expect(revoked.value['revoked_at']).not.toBeNull();
  });
});
