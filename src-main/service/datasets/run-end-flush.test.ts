import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createHarness } from './testing/harness.ts';

const flush = vi.hoisted(() => ({ fail: false }));
vi.mock('./wal-sync.ts', () => ({
  syncWalOffThread: () =>
    flush.fail ? Promise.reject(new Error('EIO: i/o error, fdatasync')) : Promise.resolve(),
}));

/**
 * A run's batches commit without an fsync; its end flushes them. If that
 * flush fails, the run is still recorded as ended, failed, saying why: it
 * stayed `running` until the next start when the error skipped the record.
 */
describe('a run whose results cannot be flushed at its end', () => {
  it('ends failed, saying its results could not be written to the disk', async () => {
    const h = createHarness();
    const path = join(h.dir, 'rows.jsonl');
    const rows = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({ question: `What is ${i} + 1?`, answer: `#### ${i + 1}` }),
    );
    writeFileSync(path, rows.join('\n') + '\n');
    const ds = await h.importFile(path, 'gsm8k');
    flush.fail = true;
    const run = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'audit', scope: { kind: 'all' } }),
    );
    expect(run).toMatchObject({
      status: 'failed',
      done: 12,
      error: 'its results could not be written to the disk: EIO: i/o error, fdatasync',
    });
    flush.fail = false;
    const again = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'audit', scope: { kind: 'all' } }),
    );
    expect(again).toMatchObject({ status: 'done', error: null });
  });
});
