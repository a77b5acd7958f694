import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowDetail } from '../../../src-shared/owner/datasets.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';
import { dispatchOwnerCall } from '../owner/dispatch.ts';
import { answerValue, EncodedJson } from '../owner/encoded-json.ts';
import { gridQueries } from './grid-queries.ts';
import { LARGE_ROW_BYTES } from './row-detail.ts';
import { datasetRow } from './rows.ts';
import { createHarness, type Harness } from './testing/harness.ts';

/**
 * A large row's detail is read, built and encoded as JSON on the grid's
 * worker, and reaches the page as the same value a row of ordinary size
 * would be (in a database on disk: the worker needs a file).
 */
let h: Harness;
let id: string;
const LARGE = 'The quick brown fox jumps over the lazy dog. '.repeat(
  Math.ceil((LARGE_ROW_BYTES * 1.5) / 45),
);

beforeAll(async () => {
  h = createHarness({ onDisk: true });
  const file = join(h.dir, 'rows.jsonl');
  writeFileSync(
    file,
    [
      '{"text": "A small row.", "id": 1}',
      // An id past 2^53 keeps its digits through the worker's JSON and the page's parse.
      `{"text": ${JSON.stringify(LARGE)}, "id": 12345678901234567890}`,
      '{"text": "Another small row.", "id": 3}',
    ].join('\n'),
  );
  id = (await h.importFile(file, 'text', 'large')).id;
  await h.scanned(id);
  await h.finished(
    await h.call('startRun', { dataset_id: id, operation: 'refine', scope: { kind: 'all' } }),
  );
  await h.scanned(id);
}, 60_000);

afterAll(async () => {
  await gridQueries(h.db).close();
});

describe('datasetRow of a large row', () => {
  it('comes encoded from the worker, the same detail as built on this thread', async () => {
    const answer = await h.handlers.datasetRow({ dataset_id: id, index: 1 });
    expect(answer).toBeInstanceOf(EncodedJson);
    expect(gridQueries(h.db).threaded).toBe(true);
    const detail = RowDetail.parse(answerValue(answer));
    expect(detail).toEqual(datasetRow(h.db, { dataset_id: id, index: 1 }));
    expect(detail.original).toEqual({ text: LARGE, id: 12345678901234567890n });
    expect(detail.audit).not.toBeNull();
  });

  it('crosses IPC as its bytes, which the page parses', async () => {
    const result = await dispatchOwnerCall(h.handlers, 'datasetRow', { dataset_id: id, index: 1 });
    if (!result.ok || !('json' in result)) throw new Error('expected the encoded detail');
    const parsed = parseJsonExact(new TextDecoder().decode(result.json));
    expect(parsed).toEqual(datasetRow(h.db, { dataset_id: id, index: 1 }));
  });

  it('leaves a row of ordinary size to this thread, and refuses a missing row here', async () => {
    const small = await h.handlers.datasetRow({ dataset_id: id, index: 0 });
    expect(small).not.toBeInstanceOf(EncodedJson);
    expect(small).toEqual(datasetRow(h.db, { dataset_id: id, index: 0 }));
    await expect(h.handlers.datasetRow({ dataset_id: id, index: 3 })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(h.handlers.datasetRow({ dataset_id: 'ds_nope', index: 0 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('editRow of a large row', () => {
  it('answers the edited detail encoded from the worker, as datasetRow then reads it', async () => {
    const edited = LARGE.replace('quick', 'slow');
    const answer = await h.handlers.editRow({
      dataset_id: id,
      index: 1,
      sample: { task_type: 'text', text: edited, id: 12345678901234567890n },
    });
    expect(answer).toBeInstanceOf(EncodedJson);
    const detail = RowDetail.parse(answerValue(answer));
    expect(detail).toEqual(datasetRow(h.db, { dataset_id: id, index: 1 }));
    expect(detail.fix?.edited).toBe(true);
    expect(detail.fix?.changes).toMatchObject([{ op: 'replace', path: '/text', value: edited }]);
    // A row of ordinary size is answered here, as its value.
    const small = await h.handlers.editRow({
      dataset_id: id,
      index: 0,
      sample: { task_type: 'text', text: 'A smaller row.', id: 1 },
    });
    expect(small).not.toBeInstanceOf(EncodedJson);
    expect(small).toEqual(datasetRow(h.db, { dataset_id: id, index: 0 }));
  });
});
