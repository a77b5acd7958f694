import { describe, expect, it, vi } from 'vitest';
import { SampleError } from '../../engine/sample-error.ts';
import { mappingSpecOf, type RowMapping } from '../../engine/rows/index.ts';
import { readSamples } from '../samples/read-samples.ts';
import { TaskRunner } from './parallel-pass.ts';
import { tempLinesFiles } from './testing/line-files.ts';

/**
 * A slice run in the calling thread (one core, or no worker could start)
 * names a failing sample by its place in the whole run, as a worker's
 * failure is named (threads/wire-error.ts `decodeError`): here the engine
 * fails on the slice's third sample.
 */

vi.mock('../runs/builtin-run.ts', async (original) => ({
  ...(await original<typeof import('../runs/builtin-run.ts')>()),
  runBuiltinInThread: () => Promise.reject(new SampleError(2, 5, new TypeError('engine bug'))),
}));

const temp = tempLinesFiles('svc-task-runner-test-');

describe('a slice run in the calling thread', () => {
  it('names a failing sample by its place in the whole run, not in the slice', async () => {
    const lines = ['a', 'b', 'c', 'd', 'e'].map((text) =>
      JSON.stringify({ task_type: 'text', text }),
    );
    const path = temp(`${lines.join('\n')}\n`);
    let mapping: RowMapping | undefined;
    // The mapping a pass chooses on the file's rows (read whole: it is chosen on the first).
    for await (const item of readSamples(path, { onMapping: (m) => (mapping = m) })) {
      expect('sample' in item).toBe(true);
    }
    const runner = new TaskRunner(undefined, new AbortController().signal);
    const failed = await runner
      .run(
        {
          kind: 'file-run',
          source: {
            path,
            start: 0,
            length: Buffer.byteLength(`${lines.join('\n')}\n`),
            firstLine: 1,
            mapping: mappingSpecOf(mapping as RowMapping),
          },
          operation: 'audit',
          config: {},
          conventions: undefined,
          issues: { active: false, duplicates: [], contamination: [] },
          history: false,
          into: null,
        },
        500,
        1000,
      )
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(SampleError);
    expect((failed as SampleError).sampleIndex).toBe(502);
    expect((failed as Error).message).toBe(
      'the engine failed on sample 503 of 1000 in this batch: TypeError: engine bug',
    );
  });
});
