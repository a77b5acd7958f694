import { describe, expect, it } from 'vitest';
import { createHarness, dataset } from './testing/harness.ts';
import { datasetScanner } from './scanner.ts';

describe('the datasets’ scans', () => {
  it('run one dataset at a time, a dataset never scanned before the rescans waiting', async () => {
    const h = createHarness();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const ds = await h.importFile(dataset('gsm8k_test_first300.jsonl'), 'gsm8k', name);
      await h.scanned(ds.id);
      ids.push(ds.id);
    }
    const [a = '', b = '', c = ''] = ids;
    // c as if just imported: no scan yet.
    h.db.prepare('UPDATE datasets SET scan_json = NULL WHERE id = ?').run(c);
    h.received.length = 0;
    const scanner = datasetScanner(h.ctx, (event) => h.events.emit(event));
    for (const id of [a, b, c]) scanner.request(id);
    for (const id of ids) await h.scanned(id);
    const scans = h.received.flatMap((event) =>
      event.type === 'scan' ? [`${event.state} ${ids.indexOf(event.dataset_id)}`] : [],
    );
    // Never two at once (each ends before the next begins), and c before b.
    expect(scans).toEqual(['running 0', 'done 0', 'running 2', 'done 2', 'running 1', 'done 1']);
  });
});
