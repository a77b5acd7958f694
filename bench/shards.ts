import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatRow } from './stats.ts';

/**
 * Shards on a scheduler, measured on this machine: one `svc audit FILE
 * --report` process over a GSM8K-like file (two real questions joined per row,
 * each pair once, and 1% exact copies so the dataset checks have work), beside the same
 * file as N shard processes run at once (each with its own data folder, as on
 * a cluster's nodes) and `svc merge --report`. Ratios against the single run
 * of the same round; the merge's output and report are checked identical.
 * On one machine the shards share its cores (the single run already uses them
 * all through the engine pool), so the figures to read are what the merge
 * costs and what every shard pays for reading the whole file; across
 * machines the shards' wall time divides by N.
 */

const repo = join(import.meta.dirname, '..');

function run(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repo, 'bin', 'svc.js'), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_'))),
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`svc ${args[0]} exited ${code}: ${stderr.slice(-500)}`)),
    );
  });
}

function writeFile(path: string, rows: number): void {
  const base = readFileSync(
    join(repo, 'resources', 'datasets', 'gsm8k_test_first300.jsonl'),
    'utf8',
  )
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { question: string; answer: string });
  const lines: string[] = [];
  // Two real questions joined, a different pair each row: rows share at most half their words,
  // so the only duplicates are the copies added below.
  for (let i = 0; i < rows; i++) {
    const a = base[i % base.length] as { question: string; answer: string };
    const b = base[(Math.floor(i / base.length) + 1 + i) % base.length] as { question: string };
    lines.push(JSON.stringify({ question: `${b.question} ${a.question}`, answer: a.answer }));
  }
  for (let i = 0; i < rows / 100; i++) lines.push(lines[(i * 7919) % rows] as string);
  writeFileSync(path, lines.join('\n') + '\n');
}

export async function benchShards(rows = 10_000, shardCounts: number[] = [2, 4]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-shards-'));
  try {
    const input = join(dir, 'in.jsonl');
    writeFile(input, rows);
    console.log(
      `\n## shards: svc audit --shard I/N + svc merge vs one run (${rows.toLocaleString('en-US')} GSM8K-like rows + 1% copies, processes, this machine)`,
    );
    const single = await run([
      'audit',
      input,
      '--out',
      join(dir, 'single.jsonl'),
      '--report',
      join(dir, 'single.json'),
      '--data-dir',
      join(dir, 'data-single'),
    ]);
    const widths = [28, 10, 10, 10, 14, 10];
    console.log(
      formatRow(['run', 'shards s', 'merge s', 'total s', 'total/single', 'identical'], widths),
    );
    console.log(formatRow(['single run, --report', '', '', single, '1.00x', ''], widths));
    for (const of of shardCounts) {
      const parts = Array.from({ length: of }, (_, i) => join(dir, `part-${of}-${i}.jsonl`));
      const shardsStarted = performance.now();
      await Promise.all(
        parts.map((part, i) =>
          run([
            'audit',
            input,
            '--shard',
            `${i}/${of}`,
            '--out',
            part,
            '--data-dir',
            join(dir, `data-${of}-${i}`),
          ]),
        ),
      );
      const shards = (performance.now() - shardsStarted) / 1000;
      const out = join(dir, `merged-${of}.jsonl`);
      const report = join(dir, `merged-${of}.json`);
      const merge = await run([
        'merge',
        out,
        ...parts,
        '--report',
        report,
        '--data-dir',
        join(dir, 'data-merge'),
      ]);
      const identical =
        readFileSync(out).equals(readFileSync(join(dir, 'single.jsonl'))) &&
        readFileSync(report).equals(readFileSync(join(dir, 'single.json')));
      console.log(
        formatRow(
          [
            `${of} shards at once + merge`,
            shards,
            merge,
            shards + merge,
            `${((shards + merge) / single).toFixed(2)}x`,
            identical ? 'yes' : 'NO',
          ],
          widths,
        ),
      );
    }
    console.log(
      'merge/single is what the merge adds to a cluster run; shards/single on one machine is the cores shared, not the split',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchShards(Number(process.argv[2] ?? 10_000));
