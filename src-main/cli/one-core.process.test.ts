import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcess, tempDirs } from './testing/cli-test-kit.ts';
import { gsm8kWithCopies } from './testing/shard-kit.ts';
import { oneCore } from '../service/threads/one-core.ts';
import { mostThreads } from './testing/thread-census.ts';

/**
 * On one core (`taskset` of one CPU, as a one-core machine) a batch command
 * runs its slices and cuts its lines in its own thread (threads/one-core.ts):
 * no engine worker and no line cutter start, and the output and report are
 * those of a run on every core.
 */

const repo = join(import.meta.dirname, '..', '..');
const tempDir = tempDirs('svc-one-core-');

/** The first CPU this process may run on, for `taskset`; undefined where there is none. */
function oneCpu(): string | undefined {
  if (!existsSync('/proc/self/status')) return undefined;
  const cpu = /^Cpus_allowed_list:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  if (cpu === undefined) return undefined;
  try {
    // Installed, and allowed to pin a process here (a locked-down container may refuse).
    execFileSync('taskset', ['--cpu-list', cpu, 'true'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return cpu;
}

const cpu = oneCpu();
const HELPERS = ['svc-engine', 'svc-line-cutter'];

/** `svc ARGS` on one core: the most helper threads of each kind it ran at once. */
function onOneCore(dir: string, args: string[]): Promise<Record<string, number>> {
  const command = ['taskset', '--cpu-list', cpu as string, process.execPath];
  const svc = [...command, join(repo, 'bin', 'svc.js'), ...args, '--data-dir', join(dir, 'data')];
  // Slices of 4 KiB: many slices, as a large file has, where a pool would start its workers.
  return mostThreads(svc, { SVC_FILE_PASS_SLICE_BYTES: '4096' }, HELPERS);
}

// Where this process has one core already, the run "on every core" would be one on one core too.
describe.skipIf(cpu === undefined || oneCore())('a batch command on one core', () => {
  it('audits and merges in its own thread, with the output of a run on every core', async () => {
    const dir = tempDir();
    const input = gsm8kWithCopies(dir);
    const out = (name: string): [string, string] => [
      join(dir, `${name}.jsonl`),
      join(dir, `${name}.json`),
    ];
    const read = (name: string): string[] => out(name).map((path) => readFileSync(path, 'utf8'));
    const [allOut, allReport] = out('all');
    const everyCore = await svcProcess(dir, 'audit', input, '--out', allOut, '--report', allReport);
    expect(everyCore.code, everyCore.stderr).toBe(0);

    const [oneOut, oneReport] = out('one');
    const none = { 'svc-engine': 0, 'svc-line-cutter': 0 };
    expect(await onOneCore(dir, ['audit', input, '--out', oneOut, '--report', oneReport])).toEqual(
      none,
    );
    expect(read('one')).toEqual(read('all'));

    // Shard 0 on every core, shard 1 on one (its pass in this thread), merged on one core. The
    // merge cuts the input as shard 1 did (slices of 4 KiB), so it takes shard 1's share of the
    // scan from its part and scans shard 0's share itself (its part's scan was cut at 256 KiB).
    const [part0, part1] = [join(dir, 'part-0.jsonl'), join(dir, 'part-1.jsonl')];
    const shard0 = await svcProcess(dir, 'audit', input, '--shard', '0/2', '--out', part0);
    expect(shard0.code, shard0.stderr).toBe(0);
    expect(await onOneCore(dir, ['audit', input, '--shard', '1/2', '--out', part1])).toEqual(none);
    const [mergedOut, mergedReport] = out('merged');
    expect(
      await onOneCore(dir, ['merge', mergedOut, part0, part1, '--report', mergedReport]),
    ).toEqual(none);
    expect(read('merged')).toEqual(read('all'));
  }, 120_000);
});
