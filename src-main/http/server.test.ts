import { get as httpGet } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/db.ts';
import { createServiceContext } from '../service/context/service-context.ts';
import { allowedHostNames, machineHostNames } from './security.ts';
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

describe('a wildcard bind (--host 0.0.0.0)', () => {
  it('prints a usable URL and answers on the machine’s own addresses, not on foreign names', async () => {
    const ctx = createServiceContext(openDatabase(':memory:'), ':memory:', 'test');
    running = await startServer({ ctx, host: '0.0.0.0', port: 0, rendererDir: null });
    expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
    const withHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        // fetch() will not send a Host of our choosing; node:http will.
        const req = httpGet(
          { host: '127.0.0.1', port: running?.port, path: '/pricing', headers: { host } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
      });
    for (const name of machineHostNames()) {
      expect(await withHost(`${name}:${running.port}`)).toBe(200);
    }
    expect(await withHost(`evil.example:${running.port}`)).toBe(403);
  });

  it('allows exactly loopback plus the machine’s names', () => {
    const machine = () => ['192.0.2.7', '[fe80::1]', 'Workstation'];
    expect(allowedHostNames('0.0.0.0', machine)).toEqual([
      '127.0.0.1',
      'localhost',
      '[::1]',
      '192.0.2.7',
      '[fe80::1]',
      'workstation',
    ]);
    expect(allowedHostNames('127.0.0.1', machine)).toEqual(['127.0.0.1', 'localhost', '[::1]']);
    expect(allowedHostNames('192.0.2.7', machine)).toContain('192.0.2.7');
    expect(allowedHostNames('192.0.2.7', machine)).not.toContain('workstation');
  });
});
