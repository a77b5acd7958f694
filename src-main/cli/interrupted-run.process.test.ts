import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDirs } from './testing/cli-test-kit.ts';
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

describe('a run to --out OUT, interrupted once it has started', () => {
  it.each([
    ['audit', ''],
    // The source's rows with the repairs, written by a writer of its own to a temporary file.
    ['fix', ' --write-back'],
    // A shard's part (its share of the scan, OUT.scan, is complete by then and stays).
    ['audit', ' --shard 0/2'],
  ])(
    '%s%s: stops, says so and leaves neither OUT nor a half-written file',
    async (command, flags) => {
      const dir = tempDir();
      const input = manyRows(dir);
      const child = spawn(
        process.execPath,
        [
          join(repo, 'bin', 'svc.js'),
          command,
          input,
          ...flags.split(' ').filter(Boolean),
          '--out',
          join(dir, 'out.jsonl'),
        ],
        { env: { ...cleanEnv, SVC_DATA_DIR: join(dir, 'data') } },
      );
      let stderr = '';
      let sent = false;
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      // Interrupted once the run's own bar (after the scan's) has started and its half-written
      // output is there: at once for OUT.partial, after the first repairs for --write-back's.
      const halfWritten = (): boolean =>
        readdirSync(dir).some((name) => name.startsWith('out.jsonl') && name.endsWith('.partial'));
      const poll = setInterval(() => {
        if (sent || !/^\[/m.test(stderr) || !halfWritten()) return;
        sent = true;
        child.kill('SIGINT');
      }, 10);
      const code = await new Promise<number | null>((done) => child.on('close', done));
      clearInterval(poll);
      expect(sent, stderr).toBe(true);
      expect(code).not.toBe(0);
      // The run's work or its reading of the file, whichever sees the interruption first.
      expect(stderr).toMatch(/^svc: (the run|reading "[^"]+") was cancelled$/m);
      const left = readdirSync(dir).filter((name) => name.startsWith('out.jsonl'));
      expect(left.filter((name) => name !== 'out.jsonl.scan')).toEqual([]);
    },
    120_000,
  );
});
