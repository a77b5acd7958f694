import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  completion,
  failure,
  startFakeUpstream,
  type FakeUpstream,
} from '../engine/upstream/testing/fake-upstream.ts';

/** `svc audit|fix|refine FILE` with the upstream the environment selects (a real process). */

const repo = join(import.meta.dirname, '..', '..');
const KEY = 'sk-cli-0123456789abcdefWXYZ';
const dirs: string[] = [];
const servers: FakeUpstream[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function svc(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    // async: the fake upstream answers from this very process
    const child = spawn(process.execPath, [join(repo, 'bin', 'svc.js'), ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function input(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-upstream-'));
  dirs.push(dir);
  const file = join(dir, 'in.jsonl');
  writeFileSync(
    file,
    ['How do I boil an egg?', 'Bananas are a fruit.']
      .map((text) => JSON.stringify({ task_type: 'text', text }))
      .join('\n') + '\n',
  );
  return { dir, file };
}

const clean = { passed: true, issues: [] };

describe('svc audit FILE through an upstream', () => {
  it('uses the server the environment names, bills its usage and never prints the key', async () => {
    const server = await startFakeUpstream(() =>
      completion(
        {
          fluency: clean,
          coherence: {
            passed: false,
            issues: [{ code: 'off_topic', message: 'no', severity: 'error' }],
          },
          formatting: clean,
          safety: clean,
        },
        { prompt_tokens: 500, completion_tokens: 50 },
      ),
    );
    servers.push(server);
    const { dir, file } = input();
    const run = await svc(['audit', file, '--data-dir', join(dir, 'data')], {
      SVC_UPSTREAM_URL: server.url,
      SVC_UPSTREAM_MODEL: 'fake-model',
      SVC_UPSTREAM_KEY: KEY,
    });
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { audit: { checks: { coherence: { issues: unknown[] } } } });
    expect(rows).toHaveLength(2);
    expect(rows[0]?.audit.checks.coherence.issues).toEqual([
      expect.objectContaining({ code: 'upstream_off_topic' }),
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(run.stderr).toContain(`engine svc-audit-1: upstream fake-model at ${server.url}`);
    expect(run.stderr).toMatch(/tokens: 1,000 in, 100 out/);
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it('stops with the upstream failure as its message and exit code 1', async () => {
    const server = await startFakeUpstream(() => failure(500, 'out of memory'));
    servers.push(server);
    const { dir, file } = input();
    const run = await svc(['audit', file, '--data-dir', join(dir, 'data')], {
      SVC_UPSTREAM_URL: server.url,
      SVC_UPSTREAM_MODEL: 'fake-model',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /svc: the upstream model server \(fake-model at http:\/\/127\.0\.0\.1:\d+\/v1\) failed: 500 out of memory/,
    );
  });
});
