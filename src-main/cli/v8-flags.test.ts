import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { FULL_POOL_V8_FLAGS, fullPoolV8Flags, SERVE_V8_FLAGS, serveV8Flags } from './v8-flags.ts';

const repoRoot = join(import.meta.dirname, '..', '..');

describe('the V8 flags of svc serve', () => {
  it('bounds the young generation for serve only, unless given or turned off', () => {
    const flags = [...SERVE_V8_FLAGS];
    expect(serveV8Flags(['serve', '--port', '0'], [], {})).toEqual(flags);
    expect(serveV8Flags(['audit', 'x.jsonl'], [], {})).toEqual([]);
    expect(serveV8Flags(['serve'], ['--max-semi-space-size=2'], {})).toEqual([]);
    expect(serveV8Flags(['serve'], [], { NODE_OPTIONS: '--max_semi_space_size=2' })).toEqual([]);
    expect(serveV8Flags(['serve'], [], { SVC_V8_DEFAULTS: '1' })).toEqual([]);
    // flags of one's own, applied once: the restarted process has them and does not restart again
    const own = { SVC_V8_FLAGS: '--max-semi-space-size=2 --optimize-for-size' };
    expect(serveV8Flags(['serve'], [], own)).toEqual([
      '--max-semi-space-size=2',
      '--optimize-for-size',
    ]);
    expect(
      serveV8Flags(['serve'], ['--max-semi-space-size=2', '--optimize-for-size'], own),
    ).toEqual([]);
    expect(serveV8Flags(['serve'], flags, {})).toEqual([]);
  });

  it('svc serve restarts itself in place: same process id, the flag in force', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-v8-'));
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'bin', 'svc.js'), 'serve', '--port', '0', '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const found = /listening on (\S+)/.exec(line)?.[1];
          if (found) resolve(found);
        });
        child.once('exit', (code) => reject(new Error(`svc serve exited with ${code}`)));
      });
      expect((await fetch(`${url}/pricing`)).status).toBe(200);
      // the process we started (killing its pid stops the server) runs with the flag
      const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      for (const flag of SERVE_V8_FLAGS) expect(cmdline).toContain(flag);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});

describe('the V8 flags of a batch command', () => {
  it('compile in place only when the engine workers fill the cores, unless given or turned off', () => {
    const flags = [...FULL_POOL_V8_FLAGS];
    expect(fullPoolV8Flags(2, 2, [], {})).toEqual(flags);
    expect(fullPoolV8Flags(16, 16, [], {})).toEqual(flags);
    expect(fullPoolV8Flags(4, 2, [], {})).toEqual(flags);
    // a core to spare: V8's background compiles run on it
    expect(fullPoolV8Flags(1, 2, [], {})).toEqual([]);
    expect(fullPoolV8Flags(15, 16, [], {})).toEqual([]);
    // the engine in the command's own thread
    expect(fullPoolV8Flags(0, 1, [], {})).toEqual([]);
    expect(fullPoolV8Flags(2, 2, [], { SVC_V8_DEFAULTS: '1' })).toEqual([]);
    expect(fullPoolV8Flags(2, 2, ['--concurrent-recompilation'], {})).toEqual([]);
    expect(fullPoolV8Flags(2, 2, ['--no_concurrent_recompilation'], {})).toEqual([]);
    expect(fullPoolV8Flags(2, 2, ['--max-old-space-size=4096'], {})).toEqual(flags);
  });
});
