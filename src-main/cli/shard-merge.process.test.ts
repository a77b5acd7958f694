import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcess as svc, tempDirs } from './testing/cli-test-kit.ts';
import { gsm8kWithCopies } from './testing/shard-kit.ts';

/**
 * The scheduler's view: 4 shards of the real CLI (bin/svc.js) as separate
 * processes at once, each with its own data folder as on a cluster's nodes,
 * then `svc merge`; the merged output (and report) equals one run over the
 * whole file byte for byte. The file is GSM8K's first 300 rows with copies
 * whose first occurrences are in other shards, so that the merge's dataset
 * checks decide the result.
 */

const tempDir = tempDirs('svc-shard-proc-');

async function shards(dir: string, args: string[]): Promise<string[]> {
  const parts = [0, 1, 2, 3].map((i) => join(dir, `part-${i}.jsonl`));
  const runs = await Promise.all(
    parts.map((part, i) =>
      svc(join(dir, `node-${i}`), ...args, '--shard', `${i}/4`, '--out', part),
    ),
  );
  for (const run of runs) expect(run.code, run.stderr).toBe(0);
  // A shard tells its share of the scan (here the file's one slice, shard 0's), read to the end.
  expect(runs[0]?.stderr).toMatch(/^dataset checks \[█+\] 100% \| 303 samples/m);
  return parts;
}

describe('4 shards as processes, merged', () => {
  it('equal one audit run with --report, byte for byte', async () => {
    const dir = tempDir();
    const input = gsm8kWithCopies(dir);
    const [single, parts] = await Promise.all([
      svc(
        dir,
        'audit',
        input,
        '--out',
        join(dir, 'single.jsonl'),
        '--report',
        join(dir, 'single.json'),
      ),
      shards(dir, ['audit', input]),
    ]);
    expect(single.code, single.stderr).toBe(0);
    const merged = await svc(
      dir,
      'merge',
      join(dir, 'merged.jsonl'),
      ...[...parts].reverse(),
      '--report',
      join(dir, 'merged.json'),
    );
    expect(merged.code, merged.stderr).toBe(0);
    const out = readFileSync(join(dir, 'merged.jsonl'), 'utf8');
    expect(out).toBe(readFileSync(join(dir, 'single.jsonl'), 'utf8'));
    expect(out.split('\n')).toHaveLength(304);
    const report = readFileSync(join(dir, 'merged.json'), 'utf8');
    expect(report).toBe(readFileSync(join(dir, 'single.json'), 'utf8'));
    const groups = (JSON.parse(report) as { duplicate_groups: { rows: number[] }[] })
      .duplicate_groups;
    expect(groups.map((g) => g.rows)).toEqual(
      expect.arrayContaining([
        [5, 300],
        [17, 301],
      ]),
    );
    expect(merged.stderr).toMatch(/^audit: 303 samples, \d+ passed, \d+ failed$/m);
    expect(merged.stderr).toMatch(/not charged \(your own runs: 4 shards, cli_/);
    // The merge tells its scan, then its rows, each ending full, before its summary.
    const lines = merged.stderr.split('\n');
    const scanned = lines.findLastIndex((line) =>
      /^dataset checks \[█+\] 100% \| 303 samples/.test(line),
    );
    const rows = lines.findLastIndex((line) =>
      /^\[█+\] 100% \| 303\/303 \| \d+\/s \| eta/.test(line),
    );
    const summary = lines.findIndex((line) => line.startsWith('audit: 303 samples'));
    expect(scanned, merged.stderr).toBeGreaterThan(-1);
    expect(rows).toBeGreaterThan(scanned);
    expect(summary).toBeGreaterThan(rows);
  }, 180_000);

  it('equal one refine run without --report, on stdout', async () => {
    const dir = tempDir();
    const input = gsm8kWithCopies(dir);
    const [single, parts] = await Promise.all([
      svc(dir, 'refine', input),
      shards(dir, ['refine', input]),
    ]);
    expect(single.code, single.stderr).toBe(0);
    const merged = await svc(dir, 'merge', '-', ...parts);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toBe(single.stdout);
    expect(merged.stdout).toContain('"exact_duplicate"');
  }, 180_000);
});
