import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Run in a process of its own: enabling Node's compile cache is for the whole
 * process, which must not be the test runner's.
 */
function run(env: Record<string, string>): { stdout: string; folder: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-compile-cache-'));
  const folder = join(dir, 'cache');
  const script = join(dir, 'main.mjs');
  writeFileSync(
    script,
    `import { useCompileCache } from ${JSON.stringify(new URL('./compile-cache.ts', import.meta.url).href)};\n` +
      `import { Worker } from 'node:worker_threads';\n` +
      `const used = useCompileCache(${JSON.stringify(folder)});\n` +
      // A thread started after it sees the folder, as the app's scan and engine threads do.
      `const worker = new Worker('require("node:worker_threads").parentPort.postMessage(process.env.NODE_COMPILE_CACHE ?? "none")', { eval: true });\n` +
      `worker.once('message', (seen) => { console.log(JSON.stringify({ used: used ?? 'none', seen })); });\n`,
  );
  const clean = { ...process.env };
  delete clean.NODE_COMPILE_CACHE;
  delete clean.NODE_DISABLE_COMPILE_CACHE;
  const child = spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    env: { ...clean, ...env },
    timeout: 20_000,
  });
  expect(child.status, child.stderr).toBe(0);
  return { stdout: child.stdout.trim(), folder };
}

describe('useCompileCache', () => {
  it("keeps Node's compile cache in the folder given, for every thread started after", () => {
    const { stdout, folder } = run({});
    const { used, seen } = JSON.parse(stdout) as { used: string; seen: string };
    expect(used.startsWith(folder)).toBe(true);
    expect(seen).toBe(used);
    // Written when the process ended: the modules it compiled.
    expect(readdirSync(folder).length).toBeGreaterThan(0);
  }, 30_000);

  it('leaves a cache folder set by the user, or the cache turned off, as it is', () => {
    const mine = mkdtempSync(join(tmpdir(), 'svc-compile-cache-mine-'));
    const given = JSON.parse(run({ NODE_COMPILE_CACHE: mine }).stdout) as { used: string };
    expect(given.used).toBe(mine);
    const off = run({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(JSON.parse(off.stdout)).toEqual({ used: 'none', seen: 'none' });
  }, 30_000);
});
