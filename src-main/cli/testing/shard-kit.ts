import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { Operation } from '../../../src-shared/schemas/config.ts';
import { fileOperationCommand } from '../file-ops.ts';
import { mergeCommand } from '../merge.ts';

/**
 * In-process runs of `svc audit|fix|refine` and `svc merge` for the shard
 * tests (the same command functions bin/svc.js calls, without a process per
 * run), with their stderr summary captured instead of printed.
 */

export const datasets = join(import.meta.dirname, '..', '..', '..', 'resources', 'datasets');

/**
 * GSM8K's first 300 rows in `dir`, with copies whose first occurrences are in
 * other shards (rows 6 and 18 again) and row 42's question in capitals with
 * another answer: the dataset checks find groups and a label conflict.
 */
export function gsm8kWithCopies(dir: string): string {
  const lines = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  const row = JSON.parse(lines[41] as string) as { question: string; answer: string };
  lines.push(lines[5] as string, lines[17] as string);
  lines.push(JSON.stringify({ ...row, question: row.question.toUpperCase(), answer: '#### 1' }));
  const path = join(dir, 'gsm8k.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** Runs `fn` with console.error captured (and the progress bar muted); gives back what it printed. */
export async function quietly(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
  const bar = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await fn();
  } finally {
    spy.mockRestore();
    bar.mockRestore();
  }
  return lines;
}

export interface ShardRun {
  operation: Operation;
  input: string;
  dir: string;
  flags?: string[];
  /** One data folder for every run (by default each shard has its own, as on a cluster). */
  data?: string;
}

/** One run over the whole file: its output (and report, with `report`). */
export async function singleRun(
  run: ShardRun,
  report = false,
): Promise<{ out: string; report?: string; summary: string[] }> {
  const out = join(run.dir, `single-${run.operation}.jsonl`);
  const reportPath = join(run.dir, `single-${run.operation}.report.json`);
  const summary = await quietly(() =>
    fileOperationCommand(run.operation, [
      run.input,
      '--out',
      out,
      '--data-dir',
      run.data ?? join(run.dir, 'data'),
      ...(report ? ['--report', reportPath] : []),
      ...(run.flags ?? []),
    ]),
  );
  return {
    out: readFileSync(out, 'utf8'),
    ...(report ? { report: readFileSync(reportPath, 'utf8') } : {}),
    summary,
  };
}

/** The N parts of a sharded run (one after the other, in process); their paths. */
export async function shardRuns(run: ShardRun, of: number, tag = ''): Promise<string[]> {
  const parts: string[] = [];
  for (let index = 0; index < of; index++) {
    const part = join(run.dir, `part-${run.operation}${tag}-${index}-of-${of}.jsonl`);
    await quietly(() =>
      fileOperationCommand(run.operation, [
        run.input,
        '--shard',
        `${index}/${of}`,
        '--out',
        part,
        '--data-dir',
        run.data ?? join(run.dir, `data-${index}`),
        ...(run.flags ?? []),
      ]),
    );
    parts.push(part);
  }
  return parts;
}

/** `svc merge OUT PART...` in process: the merged output and report, and the summary lines. */
export async function merge(
  dir: string,
  parts: string[],
  extra: string[] = [],
): Promise<{ out: string; report: string; summary: string[] }> {
  const out = join(dir, 'merged.jsonl');
  const report = join(dir, 'merged.report.json');
  const summary = await quietly(() =>
    mergeCommand([out, ...parts, '--report', report, '--data-dir', join(dir, 'data'), ...extra]),
  );
  return { out: readFileSync(out, 'utf8'), report: readFileSync(report, 'utf8'), summary };
}
