import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test as base } from '@playwright/test';

export interface SvcServer {
  baseUrl: string;
  /** The printed one-time sign-in link; it works once (the `session` fixture spends it). */
  ownerLink: string;
  dataDir: string;
  process: ChildProcess;
}

const repoRoot = join(import.meta.dirname, '..');

/** Starts `svc serve --port 0` with a fresh data dir, as a user would, and reads what it prints. */
export async function startSvc(): Promise<SvcServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'bin', 'svc.js'), 'serve', '--port', '0', '--data-dir', dataDir],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  let baseUrl: string | undefined;
  for await (const line of lines) {
    const listening = /^listening on (http:\/\/\S+)$/.exec(line);
    if (listening) baseUrl = listening[1];
    const open = /^open (http:\/\/\S+)$/.exec(line);
    const ownerLink = open?.[1];
    if (ownerLink && baseUrl) return { baseUrl, ownerLink, dataDir, process: child };
  }
  throw new Error('svc serve exited before it printed its address');
}

export async function stopSvc(server: SvcServer): Promise<void> {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  await exited;
  rmSync(server.dataDir, { recursive: true, force: true });
}

/** Redeems the printed link as a browser would, and returns the session cookie it sets. */
export async function signIn(server: SvcServer): Promise<string> {
  const response = await fetch(server.ownerLink, { redirect: 'manual' });
  const cookie = /svc_session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (response.status !== 302 || !cookie)
    throw new Error('the printed sign-in link did not sign in');
  return cookie;
}

/**
 * One `svc serve` per worker, signed in once; every test's browser context
 * carries the owner's session cookie.
 */
export const test = base.extend<object, { svc: SvcServer; session: string }>({
  svc: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startSvc();
      await use(server);
      await stopSvc(server);
    },
    { scope: 'worker' },
  ],
  session: [async ({ svc }, use) => use(await signIn(svc)), { scope: 'worker' }],
  context: async ({ context, svc, session }, use) => {
    const { hostname } = new URL(svc.baseUrl);
    await context.addCookies([
      {
        name: 'svc_session',
        value: session,
        domain: hostname,
        path: '/',
        httpOnly: true,
        sameSite: 'Strict',
      },
    ]);
    await use(context);
  },
});
export { expect } from '@playwright/test';
