import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceContext } from '../service/context/service-context.ts';
import { startServer } from '../http/server.ts';
import { openDatabase } from '../store/db.ts';
import { EmbeddedServer } from './embedded-server.ts';

const ctx = createServiceContext(openDatabase(':memory:'), ':memory:', 'test');
const embedded: EmbeddedServer[] = [];
const blockers: Server[] = [];
afterEach(async () => {
  await Promise.all(embedded.splice(0).map((e) => e.close()));
  for (const b of blockers.splice(0)) b.close();
});

function make(): EmbeddedServer {
  const server = new EmbeddedServer('127.0.0.1', (port) =>
    startServer({ ctx, host: '127.0.0.1', port, rendererDir: null }),
  );
  embedded.push(server);
  return server;
}

const answers = async (url: string | null) =>
  url !== null &&
  (await fetch(`${url}/pricing`)
    .then((r) => r.status)
    .catch(() => 0)) === 200;

describe('the embedded server follows its settings at once', () => {
  it('starts, moves to another port, stops, and starts again', async () => {
    const server = make();
    await server.apply({ enabled: true, port: 0 });
    const first = server.address();
    expect(await answers(first.url)).toBe(true);

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const freePort = (blocker.address() as { port: number }).port;
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    await server.apply({ enabled: true, port: freePort });
    expect(server.address().port).toBe(freePort);
    expect(await answers(first.url)).toBe(false);
    expect(await answers(server.address().url)).toBe(true);

    await server.apply({ enabled: false, port: freePort });
    expect(server.address()).toMatchObject({ url: null, port: null, error: null });
    await server.apply({ enabled: true, port: 0 });
    expect(await answers(server.address().url)).toBe(true);
  });

  it('says why when the port is taken, and recovers when it is changed', async () => {
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    const server = make();
    await server.apply({ enabled: true, port: taken });
    expect(server.address().url).toBeNull();
    expect(server.address().error).toMatch(
      new RegExp(`could not start on port ${taken}.*EADDRINUSE`),
    );
    await server.apply({ enabled: true, port: 0 });
    expect(server.address().error).toBeNull();
    expect(await answers(server.address().url)).toBe(true);
  });

  it('applies changes one at a time, in order', async () => {
    const server = make();
    await Promise.all([
      server.apply({ enabled: true, port: 0 }),
      server.apply({ enabled: false, port: 0 }),
      server.apply({ enabled: true, port: 0 }),
    ]);
    expect(await answers(server.address().url)).toBe(true);
  });
});
