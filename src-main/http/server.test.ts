import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/db.ts';
import { createServiceContext } from '../service/context.ts';
import { type RunningServer, startServer } from './server.ts';

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('startServer over real HTTP', () => {
  it('listens on a free port with port 0 and serves real requests', async () => {
    const ctx = createServiceContext(openDatabase(':memory:'), ':memory:', 'test');
    running = await startServer({ ctx, host: '127.0.0.1', port: 0, rendererDir: null });
    expect(running.port).toBeGreaterThan(0);
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
    const res = await fetch(`${running.url}/pricing`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(running.ownerLink()).toMatch(new RegExp(`^${running.url}/\\?token=[\\w-]{43}$`));
  });
});
