import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonlSink } from './output.ts';
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

describe('openJsonlSink', () => {
  it('writes OUT only once closed, and a discard leaves no half-written file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-sink-'));
    const out = join(dir, 'out.jsonl');
    const sink = openJsonlSink(out);
    await sink.write({ a: 1 });
    expect(existsSync(out)).toBe(false);
    await sink.discard();
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it('discards after its close without waiting for a close that already came', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-sink-'));
    const out = join(dir, 'out.jsonl');
    const sink = openJsonlSink(out);
    await sink.write({ a: 1 });
    await sink.close();
    // A run that fails after its output is closed (a later step) discards it: this must settle.
    await sink.discard();
    expect(readFileSync(out, 'utf8')).toBe('{"a":1}\n');
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});
