import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ScanProgress } from './progress-bars.ts';

/** A stream that is no terminal, as a pipe or a CI log is: the bar writes whole lines. */
function captured(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

describe('ScanProgress', () => {
  it('says how much of the file the scan has read, and ends full', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(true, stream);
    bar.update(0.25, 1000);
    bar.update(0.5, 2000);
    bar.done(2400);
    const lines = text().split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^dataset checks \[[█░]+\] 25% \| 1000 samples \| /);
    expect(lines.at(-1)).toMatch(/^dataset checks \[█+\] 100% \| 2400 samples \| /);
  });

  it('counts samples alone where the file cannot be measured', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(false, stream);
    bar.update(0.9, 4096);
    bar.done(4100);
    expect(text()).toMatch(/dataset checks: 4100 samples \| /);
    expect(text()).not.toMatch(/%/);
  });

  it('writes nothing when the scan never got anywhere (a file that fails at once)', () => {
    const { stream, text } = captured();
    const bar = new ScanProgress(true, stream);
    bar.stop();
    bar.done(0);
    expect(text()).toBe('');
  });
});

describe('svc audit FILE: the scan before the run', () => {
  const repo = join(import.meta.dirname, '..', '..');
  const work = mkdtempSync(join(tmpdir(), 'svc-scan-progress-'));
  const rows = Array.from({ length: 2500 }, (_, i) => ({
    question: `How many apples are left when ${i} of ${i + 7} are eaten?`,
    answer: '7',
  }));
  const audit = (input: string, env: Record<string, string> = {}) =>
    spawnSync(
      process.execPath,
      [join(repo, 'bin', 'svc.js'), 'audit', input, '--out', `${input}.out.jsonl`],
      {
        encoding: 'utf8',
        env: { ...process.env, SVC_DATA_DIR: join(work, 'data'), ...env },
      },
    );
  /** The scan's bar lines and where the run's own bar starts. */
  const read = (stderr: string) => {
    const lines = stderr.split('\n');
    const scan = lines.flatMap((line, at) => (line.startsWith('dataset checks') ? [at] : []));
    const run = lines.findIndex((line) => line.startsWith('['));
    return { lines, scan, run };
  };

  it('shows the slices scanned, then the run', () => {
    const input = join(work, 'rows.jsonl');
    writeFileSync(input, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
    // Slices of 16 KiB: the file's ~200 KiB is scanned in a dozen.
    const result = audit(input, { SVC_FILE_PASS_SLICE_BYTES: String(16 << 10) });
    expect(result.status, result.stderr).toBe(0);
    const { lines, scan, run } = read(result.stderr);
    expect(scan.length).toBeGreaterThan(0);
    expect(lines[scan.at(-1) as number]).toMatch(/\] 100% \| 2500 samples \| /);
    expect(run).toBeGreaterThan(scan.at(-1) as number);
  });

  it('shows the rows scanned where the rows are read one at a time (CSV)', () => {
    const input = join(work, 'rows.csv');
    const csv = rows.map((row) => `"${row.question}",${row.answer}`);
    writeFileSync(input, ['question,answer', ...csv].join('\n') + '\n');
    const result = audit(input);
    expect(result.status, result.stderr).toBe(0);
    const { lines, scan, run } = read(result.stderr);
    expect(scan.length).toBeGreaterThan(0);
    expect(lines[scan.at(-1) as number]).toMatch(/\] 100% \| 2500 samples \| /);
    expect(run).toBeGreaterThan(scan.at(-1) as number);
  });
});
