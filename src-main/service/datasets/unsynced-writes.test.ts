import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createHarness } from './testing/harness.ts';

/**
 * A person's bulk decisions and a dataset's deletion commit a transaction per
 * turn of the event loop. At synchronous=FULL each of those commits fsyncs the
 * WAL on the server's thread, and while other threads write (the WAL keeper,
 * a scan) one fsync waited up to 80 ms: the server stood still. They commit
 * unsynced (store/commit.ts): the level is lowered around each transaction and
 * put back after; the WAL is then flushed off the thread (wal-sync.ts).
 */
describe('dataset writes that a person starts commit without an fsync', () => {
  const LOWER = 'PRAGMA synchronous = 1';

  async function imported(): Promise<{ h: ReturnType<typeof createHarness>; id: string }> {
    const h = createHarness({ onDisk: true });
    const path = join(h.dir, 'rows.jsonl');
    const rows = Array.from({ length: 120 }, (_, i) =>
      JSON.stringify({ question: `What is ${i} + ${i}?`, answer: `#### ${2 * i}` }),
    );
    writeFileSync(path, rows.join('\n') + '\n');
    const summary = await h.importFile(path, 'gsm8k', 'rows');
    await h.scanned(summary.id);
    return { h, id: summary.id };
  }

  it('drops and restores every row in unsynced transactions, the connection back at FULL', async () => {
    const { h, id } = await imported();
    const exec = vi.spyOn(h.db, 'exec');
    expect(await h.call('decide', { dataset_id: id, filter: {}, decision: 'dropped' })).toEqual({
      updated: 120,
    });
    expect(exec.mock.calls.map(([sql]) => sql)).toContain(LOWER);
    exec.mockClear();
    expect(await h.call('decide', { dataset_id: id, filter: {}, decision: 'restored' })).toEqual({
      updated: 120,
    });
    expect(exec.mock.calls.map(([sql]) => sql)).toContain(LOWER);
    expect(h.db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('deletes the rows in unsynced transactions, the connection back at FULL', async () => {
    const { h, id } = await imported();
    const exec = vi.spyOn(h.db, 'exec');
    await h.call('deleteDataset', { dataset_id: id });
    expect(exec.mock.calls.map(([sql]) => sql)).toContain(LOWER);
    expect(h.db.prepare('SELECT count(*) AS n FROM dataset_rows').get()).toEqual({ n: 0 });
    expect(h.db.pragma('synchronous', { simple: true })).toBe(2);
  });
});
