import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oneCore } from '../service/threads/one-core.ts';
import { tempDirs } from './testing/cli-test-kit.ts';
import { mostThreads } from './testing/thread-census.ts';

/**
 * `svc audit` of a small file starts no more engine workers than the file has
 * slices, however many are asked for (pool-ahead.ts `fitWorkersToFiles`):
 * the process's engine threads are counted from /proc while it runs.
 */

const repo = join(import.meta.dirname, '..', '..');
const dir = tempDirs('svc-fit-workers-');

/** The most `svc-engine` threads seen at once in `svc ARGS`'s process. */
async function mostEngineThreads(env: Record<string, string>, args: string[]): Promise<number> {
  const svc = [process.execPath, join(repo, 'bin', 'svc.js'), ...args];
  return (await mostThreads(svc, env, ['svc-engine']))['svc-engine'] ?? 0;
}

const rows = (n: number): string =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({ task_type: 'text', text: `Row ${i}: a short text about the weather.` }),
  ).join('\n');

// On one core the pass starts no worker (threads/one-core.ts; one-core.process.test.ts).
describe.skipIf(!existsSync('/proc/self/task') || oneCore())(
  'the engine workers of a small file',
  () => {
    it('one for a file of one slice, though four are asked for; four for four slices', async () => {
      const folder = dir();
      const input = join(folder, 'small.jsonl');
      writeFileSync(input, `${rows(40)}\n`);
      const data = join(folder, 'data');
      const args = ['audit', input, '--out', join(folder, 'out.jsonl'), '--data-dir', data];
      expect(await mostEngineThreads({ SVC_ENGINE_WORKERS: '4' }, args)).toBe(1);
      // The same file in slices of 500 bytes: enough for every worker asked for.
      const sliced = { SVC_ENGINE_WORKERS: '4', SVC_FILE_PASS_SLICE_BYTES: '500' };
      expect(await mostEngineThreads(sliced, args)).toBe(4);
    }, 60_000);
  },
);
