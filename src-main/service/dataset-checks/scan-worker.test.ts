import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, dataset, type Harness } from '../datasets/testing/harness.ts';
import { runningScanThreads } from './sqlite.ts';

/**
 * A scan reads and hashes on a worker thread when the database is a file
 * (scan-worker.ts), on the main thread when it is in memory: both write the
 * same verdicts, groups, statistics and findings, and a rescan after drops
 * (signatures kept by the worker's scan) agrees too.
 */

const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter(Boolean);

/** GSM8K's first 300 rows (a benchmark's test items: contamination) with 40 copies, some shouted. */
function gsmWithCopies(h: Harness): string {
  const rows = lines(dataset('gsm8k_test_first300.jsonl')).map(
    (line) => JSON.parse(line) as { question: string; answer: string },
  );
  for (let i = 0; i < 40; i++) {
    const row = rows[i * 7] as { question: string; answer: string };
    rows.push(i % 2 === 0 ? row : { ...row, question: row.question.toUpperCase() });
  }
  const path = join(h.dir, 'gsm-copies.jsonl');
  writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  return path;
}

/** What a scan left: every row's verdict and checks, the Overview without its time. */
async function scanned(h: Harness, id: string): Promise<unknown> {
  await h.scanned(id);
  const rows = [];
  for (let index = 0; index < 340; index++) {
    const row = await h.call('datasetRow', { dataset_id: id, index });
    rows.push({ audit: row.audit, dropped: row.dropped });
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- each harness names its own
  const { scan, dataset_id, ...overview } = await h.call('datasetOverview', { dataset_id: id });
  return { rows, overview, scan: { ...scan, scanned_at: undefined } };
}

describe('a scan on its worker thread', () => {
  it('is done only once its thread has ended, its heap given back', async () => {
    const h = createHarness({ onDisk: true });
    const ds = await h.importFile(gsmWithCopies(h), 'gsm8k');
    await h.scanned(ds.id);
    // The heap's release slowed the first search after ready (sqlite.ts, scanDataset).
    expect(runningScanThreads()).toBe(0);
    const overview = await h.call('datasetOverview', { dataset_id: ds.id });
    expect(overview.scanning).toBe(false);
    expect(overview.scan).not.toBeNull();
  });

  it('finds what a scan on the main thread finds, before and after drops', async () => {
    const onDisk = createHarness({ onDisk: true });
    const inMemory = createHarness();
    const results = [];
    for (const h of [onDisk, inMemory]) {
      const ds = await h.importFile(gsmWithCopies(h), 'gsm8k');
      const first = await scanned(h, ds.id);
      await h.call('decide', {
        dataset_id: ds.id,
        filter: { repeats: true },
        decision: 'dropped',
      });
      results.push({ first, second: await scanned(h, ds.id) });
    }
    const [worker, main] = results;
    expect(JSON.stringify(worker?.first)).toContain('exact_duplicate');
    expect(JSON.stringify(worker?.first)).toContain('contamination');
    expect(worker).toEqual(main);
    expect(worker?.first).not.toEqual(worker?.second);
  }, 60_000);
});
