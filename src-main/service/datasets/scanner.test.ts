import { describe, expect, it } from 'vitest';
import { createHarness, dataset } from './testing/harness.ts';
import { datasetScanner } from './scanner.ts';

/** GSM8K's 300 rows imported as `names`, each scanned once; the events received cleared. */
async function scannedDatasets(names: string[]) {
  const h = createHarness();
  const ids: string[] = [];
  for (const name of names) {
    const ds = await h.importFile(dataset('gsm8k_test_first300.jsonl'), 'gsm8k', name);
    await h.scanned(ds.id);
    ids.push(ds.id);
  }
  h.received.length = 0;
  const scanner = datasetScanner(h.ctx, (event) => h.events.emit(event));
  /** The scan events since, as "done 1" (the state, the dataset's place in `names`). */
  const scans = () =>
    h.received.flatMap((event) =>
      event.type === 'scan' ? [`${event.state} ${ids.indexOf(event.dataset_id)}`] : [],
    );
  return { h, ids, scanner, scans };
}

describe('the datasets’ scans', () => {
  it('run one dataset at a time, a dataset never scanned before the rescans waiting', async () => {
    const { h, ids, scanner, scans } = await scannedDatasets(['a', 'b', 'c']);
    const [a = '', b = '', c = ''] = ids;
    // c as if just imported: no scan yet.
    h.db.prepare('UPDATE datasets SET scan_json = NULL WHERE id = ?').run(c);
    for (const id of [a, b, c]) scanner.request(id);
    for (const id of ids) await h.scanned(id);
    // Never two at once (each ends before the next begins), and c before b.
    expect(scans()).toEqual(['running 0', 'done 0', 'running 2', 'done 2', 'running 1', 'done 1']);
  });

  it('scan a small dataset beside a large one, not after it', async () => {
    const { h, ids, scanner, scans } = await scannedDatasets(['large', 'small']);
    const [large = '', small = ''] = ids;
    h.db.prepare('UPDATE datasets SET row_count = 30 WHERE id = ?').run(small);
    // Large: more than 100 rows (300); small: 30.
    scanner.smallRows = 100;
    scanner.request(large);
    scanner.request(small);
    for (const id of ids) await h.scanned(id);
    // The small one began before the large one ended (in one line, it waited for it).
    expect(scans().slice(0, 2)).toEqual(['running 0', 'running 1']);
    expect(scans().toSorted()).toEqual(['done 0', 'done 1', 'running 0', 'running 1']);
  });

  it('scan a dataset a person just decided on before the rescans waiting', async () => {
    const { h, ids, scanner, scans } = await scannedDatasets(['a', 'b', 'c']);
    const [a = '', b = '', c = ''] = ids;
    scanner.request(a);
    scanner.request(b);
    // c's rescan is asked for by a decision on one of its rows: it goes before b's.
    scanner.request(c, 0, true);
    for (const id of ids) await h.scanned(id);
    expect(scans()).toEqual(['running 0', 'done 0', 'running 2', 'done 2', 'running 1', 'done 1']);
  });
});
