import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRows } from '../../files/index.ts';
import { createHarness } from './testing/harness.ts';

/**
 * A dataset whose rows hold integers past 2^53 (tweet ids, 64-bit hashes)
 * keeps their digits from the import to every export, through a refine, an
 * accepted fix and a person's edit. The source is a JSON array, so no row's
 * own line is kept: every row is parsed, stored and written again.
 */

const ROWS = 30;
const idOf = (i: number): string => `${1234567890123456789n + BigInt(i) * 1_000_003n}`;
const HASH = '18446744073709551615';

function jsonArray(path: string): string {
  const rows = Array.from(
    { length: ROWS },
    (_, i) =>
      `{"task_type":"text","text":"Order ${i}: the CafÃ© was fine.","tweet_id":${idOf(i)},"meta":{"hash":${HASH}}}`,
  );
  writeFileSync(path, `[${rows.join(',\n')}]`);
  return path;
}

/** The file's text with the space after a key's colon taken out (the styles differ there). */
const compact = (path: string): string => readFileSync(path, 'utf8').replaceAll(/":\s+/g, '":');

describe('integers past 2^53 in a dataset', () => {
  it('keep their digits through import, refine, an edit and every export', async () => {
    const h = createHarness();
    const ds = await h.importFile(jsonArray(join(h.dir, 'tweets.json')), 'sample');
    const row = await h.call('datasetRow', { dataset_id: ds.id, index: 4 });
    expect(row.original.tweet_id).toBe(BigInt(idOf(4)));
    expect(row.sample.tweet_id).toBe(BigInt(idOf(4)));

    const run = await h.call('startRun', {
      dataset_id: ds.id,
      operation: 'refine',
      scope: { kind: 'all' },
    });
    expect((await h.finished(run)).status).toBe('done');
    await h.call('decide', { dataset_id: ds.id, filter: {}, decision: 'accepted' });
    // A person's edit starts from the sample as the review shows it, ids and all.
    const seventh = await h.call('datasetRow', { dataset_id: ds.id, index: 7 });
    await h.call('editRow', {
      dataset_id: ds.id,
      index: 7,
      sample: { ...seventh.sample, text: 'Order 7: edited by hand.' },
    });
    await h.call('decide', { dataset_id: ds.id, indices: [7], decision: 'accepted' });

    for (const format of ['json', 'jsonl', 'csv'] as const) {
      const out = join(h.dir, `out.${format}`);
      const result = await h.call('exportDataset', { dataset_id: ds.id, format, path: out });
      expect(result.rows).toBe(ROWS);
      const text = format === 'csv' ? readFileSync(out, 'utf8') : compact(out);
      expect(text).not.toContain('CafÃ©');
      expect(text).toContain('edited by hand');
      for (let i = 0; i < ROWS; i++) {
        expect(text).toContain(format === 'csv' ? idOf(i) : `"tweet_id":${idOf(i)}`);
      }
      expect(text.split(format === 'csv' ? `""hash"":${HASH}` : `"hash":${HASH}`)).toHaveLength(
        ROWS + 1,
      );
    }
    // Parquet: the ids an INT64 column, the hashes (past 64 bits) JSON; both read back exactly.
    const out = join(h.dir, 'out.parquet');
    await h.call('exportDataset', { dataset_id: ds.id, format: 'parquet', path: out });
    const back: Record<string, unknown>[] = [];
    for await (const result of readRows(out)) if ('value' in result) back.push(result.value);
    expect(back.map((r) => r.tweet_id)).toEqual(
      Array.from({ length: ROWS }, (_, i) => BigInt(idOf(i))),
    );
    expect(back.map((r) => (r.meta as { hash: unknown }).hash)).toEqual(
      Array.from({ length: ROWS }, () => BigInt(HASH)),
    );
  });
});
