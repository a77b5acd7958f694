import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const svc = join(import.meta.dirname, '..', '..', 'bin', 'svc.js');

/** Files under a folder, at any depth. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

describe("the CLI's compile cache", () => {
  it('is kept in the temporary folder and used again, with the same results', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-compile-cache-'));
    const input = join(dir, 'in.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({ text: 'A plain sentence that is fine.' })}\n` +
        `${JSON.stringify({ text: 'Another  sentence, with two spaces.' })}\n`,
    );
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: dir, NODE_OPTIONS: '' };
    delete env.NODE_COMPILE_CACHE;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const audit = (out: string) =>
      spawnSync(
        process.execPath,
        [svc, 'audit', input, '--out', join(dir, out), '--data-dir', join(dir, `data-${out}`)],
        { env, encoding: 'utf8' },
      );
    const first = audit('first.jsonl');
    expect(first.status, first.stderr).toBe(0);
    // Stripped sources and V8's code of the CLI's modules, this thread's and the workers'.
    const cached = filesUnder(join(dir, 'node-compile-cache'));
    expect(cached.length).toBeGreaterThan(50);
    const second = audit('second.jsonl');
    expect(second.status, second.stderr).toBe(0);
    expect(readFileSync(join(dir, 'second.jsonl'), 'utf8')).toBe(
      readFileSync(join(dir, 'first.jsonl'), 'utf8'),
    );
  }, 60_000);
});
