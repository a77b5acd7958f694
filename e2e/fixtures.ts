import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test as base } from '@playwright/test';

export interface SvcServer {
  baseUrl: string;
  /** Take the printed one-time sign-in link; it works once. */
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

export const test = base.extend<object, { svc: SvcServer }>({
  svc: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startSvc();
      await use(server);
      await stopSvc(server);
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';
