import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcessWith, tempDirs } from './testing/cli-test-kit.ts';

/** `svc audit FILE` as a process: the scan's bar on stderr, then the run's. */

const tempDir = tempDirs('svc-scan-bar-');

const ROWS = 2500;
const rows = Array.from({ length: ROWS }, (_, i) => ({
  question: `How many apples are left when ${i} of ${i + 7} are eaten?`,
  answer: '7',
}));

/** The rows as a JSON Lines file in `dir`. */
function jsonlInput(dir: string): string {
  const input = join(dir, 'rows.jsonl');
  writeFileSync(input, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return input;
}

/** The scan's bar lines (their text), and where the run's own bar starts after the last. */
function bars(stderr: string): { scan: string[]; runAfterScan: boolean } {
  const lines = stderr.split('\n');
  const at = lines.flatMap((line, i) => (line.startsWith('dataset checks') ? [i] : []));
  const run = lines.findIndex((line) => line.startsWith('['));
  return { scan: at.map((i) => lines[i] as string), runAfterScan: run > (at.at(-1) ?? -1) };
}

describe('svc audit FILE: the scan before the run', () => {
  it('shows the share of the file scanned slice by slice, then 100%, then the run', async () => {
    const dir = tempDir();
    const input = jsonlInput(dir);
    // Slices of 16 KiB: the file's ~190 KiB is scanned in a dozen.
    const env = { SVC_FILE_PASS_SLICE_BYTES: String(16 << 10) };
    const run = await svcProcessWith(env, dir, 'audit', input, '--out', join(dir, 'out.jsonl'));
    expect(run.code, run.stderr).toBe(0);
    const { scan, runAfterScan } = bars(run.stderr);
    // A pipe gets the first slice's line at once: a share between none and all.
    expect(scan[0]).toMatch(/^dataset checks \[[█░]+\] ([1-9]|[1-9]\d)% \| \d+ samples \| /);
    expect(scan.at(-1)).toMatch(/^dataset checks \[█+\] 100% \| 2500 samples \| /);
    expect(runAfterScan).toBe(true);
  }, 120_000);

  it('shows the rows scanned where they are read one at a time (CSV)', async () => {
    const dir = tempDir();
    const input = join(dir, 'rows.csv');
    const csv = rows.map((row) => `"${row.question}",${row.answer}`);
    writeFileSync(input, ['question,answer', ...csv].join('\n') + '\n');
    const run = await svcProcessWith({}, dir, 'audit', input, '--out', join(dir, 'out.jsonl'));
    expect(run.code, run.stderr).toBe(0);
    const { scan, runAfterScan } = bars(run.stderr);
    expect(scan.at(-1)).toMatch(/^dataset checks \[█+\] 100% \| 2500 samples \| /);
    expect(runAfterScan).toBe(true);
  }, 120_000);

  it('refuses an --out folder that is not there before the scan, with no bar', async () => {
    const dir = tempDir();
    const input = jsonlInput(dir);
    const out = join(dir, 'missing', 'out.jsonl');
    const run = await svcProcessWith({}, dir, 'audit', input, '--out', out);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/dataset checks/);
    expect(run.stderr).toMatch(/cannot write .*missing/);
  }, 120_000);
});
