import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RowsPage, type RowFilter } from '../../../src-shared/owner/datasets.ts';
import { gridQueries } from './grid-queries.ts';
import { createHarness, type Harness } from './testing/harness.ts';

/**
 * A search looks in every field of the row (every turn, mapped and unmapped
 * metadata), and can be limited to one field; a scan of the rows and the
 * trigram index agree. A chat file of its own schema (`dialog` of
 * `speaker`/`utterance` turns, a `meta` object), in a database on disk so the
 * grid's pages come from its worker.
 */

const N = 40;
let h: Harness;
let id: string;

const turn = (speaker: string, utterance: string) => ({ speaker, utterance });
const row = (i: number) => ({
  dialog: [
    turn('human', `Question ${i}: how do I file my taxes?`),
    turn('bot', i % 4 === 1 ? 'Ask an accountant.' : `Fill the form, step ${i}.`),
    ...(i === 7 ? [turn('human', 'Thanks'), turn('bot', 'My accountant friend says hi.')] : []),
  ],
  meta: { src: i % 5 === 0 ? 'forum-scrape' : 'handwritten', note: `row ${i} of the taxes set` },
});

beforeAll(async () => {
  h = createHarness({ onDisk: true });
  const file = join(h.dir, 'chat.jsonl');
  writeFileSync(file, Array.from({ length: N }, (_, i) => JSON.stringify(row(i))).join('\n'));
  const imported = await h.call('importDataset', {
    source: { path: file },
    name: 'chat',
    shape: 'custom',
    mapping: {
      task_type: 'conversation',
      fields: {
        messages: 'dialog',
        role_key: 'speaker',
        content_key: 'utterance',
        roles: { human: 'user', bot: 'assistant' },
      },
    },
  });
  id = imported.id;
});

const found = async (filter: RowFilter): Promise<number[]> =>
  RowsPage.parse(
    await h.call('datasetRows', { dataset_id: id, offset: 0, limit: 1000, filter }),
  ).rows.map((r) => r.index);

const indices = (keep: (i: number) => boolean): number[] => [...Array(N).keys()].filter(keep);

const SEARCHES: [RowFilter, number[]][] = [
  // only in assistant turns (a later turn too)
  [{ search: 'ACCOUNTANT' }, indices((i) => i % 4 === 1 || i === 7)],
  [{ search: 'accountant friend' }, [7]],
  // an unmapped metadata field
  [{ search: 'forum-scrape' }, indices((i) => i % 5 === 0)],
  // limited to one field: `taxes` is in every user turn and every note
  [{ search: 'taxes', search_field: 'meta.note' }, indices(() => true)],
  [{ search: 'taxes', search_field: 'meta.src' }, []],
  [{ search: 'row 3 ', search_field: 'meta' }, [3]],
  [
    { search: 'accountant', search_field: 'dialog.utterance' },
    indices((i) => i % 4 === 1 || i === 7),
  ],
  [{ search: 'accountant', search_field: 'meta' }, []],
  [{ search: 'bot', search_field: 'dialog.speaker' }, indices(() => true)],
  // a phrase never spans two fields, and keys are not text
  [{ search: 'taxes? bot' }, []],
  [{ search: 'utterance' }, []],
  [{ search: 'ac', search_field: 'dialog' }, indices((i) => i % 4 === 1 || i === 7)],
];

describe('a search over every field of the row', () => {
  it('finds words in any turn and any field, or in the one field asked, scanned or indexed', async () => {
    const scanned = await Promise.all(SEARCHES.map(([filter]) => found(filter)));
    await gridQueries(h.db).whenIndexed(id);
    const indexed = await Promise.all(SEARCHES.map(([filter]) => found(filter)));
    SEARCHES.forEach(([filter, expected], i) => {
      expect(scanned[i], JSON.stringify(filter)).toEqual(expected);
      expect(indexed[i], JSON.stringify(filter)).toEqual(expected);
    });
  });
});
