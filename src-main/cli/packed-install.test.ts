import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcessOf, tempDirs } from './testing/cli-test-kit.ts';

/**
 * The command line installed on its own: the sources, `bin/`, `package.json`
 * and the packages, nothing else of the checkout (no `resources/`, no `out/`),
 * as a many-core machine is sent it to time `svc audit` and `svc merge`. The
 * benchmark fingerprints once lived in `resources/` and every audit of such
 * an install failed with "the benchmark fingerprints are missing".
 */

const repo = join(import.meta.dirname, '..', '..');
const tempDir = tempDirs('svc-packed-');

function packedInstall(): string {
  const app = join(tempDir(), 'app');
  for (const part of ['src-main', 'src-shared', 'bin', 'package.json']) {
    cpSync(join(repo, part), join(app, part), { recursive: true });
  }
  symlinkSync(join(repo, 'node_modules'), join(app, 'node_modules'), 'dir');
  return app;
}

type Row = { audit: { checks: Record<string, { passed: boolean; issues: unknown[] }> } };

describe('svc installed as sources, bin, package.json and packages only', () => {
  it('audits a file, finding benchmark items with the fingerprints it carries', async () => {
    const app = packedInstall();
    const dir = tempDir();
    const lines = readFileSync(
      join(repo, 'resources', 'datasets', 'gsm8k_test_first300.jsonl'),
      'utf8',
    )
      .split('\n')
      .slice(0, 12);
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, lines.join('\n') + '\n');
    const run = await svcProcessOf(app, dir, 'audit', input);
    expect(run.stderr).not.toMatch(/missing|error/i);
    expect(run.code).toBe(0);
    const rows = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Row);
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(JSON.stringify(row.audit.checks.contamination)).toMatch(/gsm8k/);
  });
});
