import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcess } from './testing/cli-test-kit.ts';

const GSM8K = join(
  import.meta.dirname,
  '..',
  '..',
  'resources',
  'datasets',
  'gsm8k_test_first300.jsonl',
);

describe('--out in a folder that is not there', () => {
  it('is refused in words before any work, with no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-out-'));
    const out = join(dir, 'missing', 'audited.jsonl');
    const run = await svcProcess(dir, 'audit', GSM8K, '--out', out);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `svc: cannot write ${out}: no such file (is the folder ${join(dir, 'missing')} there and writable?)`,
    );
  });
});
