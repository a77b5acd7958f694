import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, svcProcess, tempDirs } from './testing/cli-test-kit.ts';
import { datasets } from './testing/shard-kit.ts';

const tempDir = tempDirs('svc-interrupted-');
const repo = join(import.meta.dirname, '..', '..');

/** GSM8K's 300 questions, each 40 times with a number of its own: a run of a few seconds. */
function manyRows(dir: string): string {
  const lines = readFileSync(join(datasets, 'gsm8k_test_first300.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { question: string; answer: string });
  const rows = Array.from({ length: 40 }, (_, copy) =>
    lines.map((row) => JSON.stringify({ ...row, question: `${row.question} (${copy})` })),
  ).flat();
  const input = join(dir, 'many.jsonl');
  writeFileSync(input, rows.join('\n') + '\n');
  return input;
}

type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Runs `svc ARGS` and sends it `signal` once `ready(stderr)` holds and a
 * half-written `out.jsonl…partial` is in `dir`; gives its exit code and stderr.
 */
async function interrupted(
  dir: string,
  args: string[],
  signal: StopSignal,
  ready: (stderr: string) => boolean,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [join(repo, 'bin', 'svc.js'), ...args], {
    env: { ...cleanEnv, SVC_DATA_DIR: join(dir, 'data') },
  });
  let stderr = '';
  let sent = false;
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const halfWritten = (): boolean =>
    readdirSync(dir).some((name) => name.startsWith('out.jsonl') && name.endsWith('.partial'));
  const poll = setInterval(() => {
    if (sent || !ready(stderr) || !halfWritten()) return;
    sent = true;
    child.kill(signal);
  }, 10);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearInterval(poll);
  expect(sent, stderr).toBe(true);
  return { code, stderr };
}

/** What an interrupted command ends with: the shell's code for the signal, and one line. */
function expectStopped(
  { code, stderr }: { code: number | null; stderr: string },
  signal: StopSignal,
) {
  expect(code, stderr).toBe(signal === 'SIGINT' ? 130 : 143);
  expect(stderr).toMatch(
    new RegExp(
      `^svc: interrupted \\(${signal}\\): stopped before the output was complete, so no output file was written$`,
      'm',
    ),
  );
}

/** The files of `dir` named for the output, its shard's finished scan share left out. */
const outputsLeft = (dir: string): string[] =>
  readdirSync(dir).filter((name) => name.startsWith('out.jsonl') && name !== 'out.jsonl.scan');

describe('a run to --out OUT, interrupted once it has started', () => {
  it.each([
    ['audit', '', 'SIGINT'],
    // A scheduler's stop (Kubernetes, Slurm) as a terminal's Ctrl-C.
    ['audit', '', 'SIGTERM'],
    // The source's rows with the repairs, written by a writer of its own to a temporary file.
    ['fix', ' --write-back', 'SIGINT'],
    // A shard's part (its share of the scan, OUT.scan, is complete by then and stays).
    ['audit', ' --shard 0/2', 'SIGTERM'],
  ] as const)(
    '%s%s, %s: stops, says so and leaves neither OUT nor a half-written file',
    async (command, flags, signal) => {
      const dir = tempDir();
      const input = manyRows(dir);
      const args = [command, input, ...flags.split(' ').filter(Boolean), '--out'];
      // Interrupted once the run's own bar (after the scan's) has started and its half-written
      // output is there: at once for OUT.partial, after the first repairs for --write-back's.
      const result = await interrupted(dir, [...args, join(dir, 'out.jsonl')], signal, (stderr) =>
        /^\[/m.test(stderr),
      );
      expectStopped(result, signal);
      expect(outputsLeft(dir)).toEqual([]);
    },
    120_000,
  );
});

describe('svc merge, interrupted', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s: stops, says so and leaves neither OUT nor a half-written file',
    async (signal) => {
      const dir = tempDir();
      const input = manyRows(dir);
      const parts = [0, 1].map((shard) => join(dir, `part-${shard}.jsonl`));
      const shards = await Promise.all(
        parts.map((part, shard) =>
          svcProcess(dir, 'audit', input, '--shard', `${shard}/2`, '--out', part),
        ),
      );
      for (const { code, stderr } of shards) expect(code, stderr).toBe(0);
      // Its output is opened before the scan: interrupted as soon as that file is there.
      const result = await interrupted(
        dir,
        ['merge', join(dir, 'out.jsonl'), ...parts],
        signal,
        () => true,
      );
      expectStopped(result, signal);
      expect(outputsLeft(dir)).toEqual([]);
    },
    120_000,
  );
});
