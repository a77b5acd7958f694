import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunScope } from '../../../src-shared/owner/runs.ts';
import { datasetRecord } from '../../store/datasets.ts';
import { gridQueries } from './grid-queries.ts';
import { resolveScope } from './run-scope.ts';
import { answerScope } from './scope.ts';
import { createHarness, type Harness } from './testing/harness.ts';

/**
 * A run's scope is worked out by the grid's worker (a database on disk): the
 * same rows and size as this thread works out by scanning the rows, for a
 * search in the dataset's index, a filter, a selection and the whole dataset.
 */

const N = 60;
const hasEggs = (i: number): boolean => i % 7 === 2;
let h: Harness;
let id: string;

beforeAll(async () => {
  h = createHarness({ onDisk: true });
  const file = join(h.dir, 'rows.jsonl');
  const rows = Array.from({ length: N }, (_, i) => ({
    question: `Row ${i}: Janet has ${i} ${hasEggs(i) ? 'eggs' : 'apples'} and buys ${i % 5} more. How many now?`,
    answer: `${i} + ${i % 5} = <<${i}+${i % 5}=${i + (i % 5)}>>${i + (i % 5)}\n#### ${i + (i % 5)}`,
  }));
  writeFileSync(file, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  id = (await h.importFile(file, 'gsm8k', 'scope')).id;
  await h.scanned(id);
  await gridQueries(h.db).whenIndexed(id);
});

const eggs = Array.from({ length: N }, (_, i) => i).filter(hasEggs);
const SCOPES: [string, RunScope, number[]][] = [
  ['a search', { kind: 'filter', filter: { search: 'EGGS' } }, eggs],
  [
    'a search and a field',
    { kind: 'filter', filter: { search: 'eggs', search_field: 'question' } },
    eggs,
  ],
  ['a selection', { kind: 'selection', indices: [59, 3, 3, 0, 41] }, [0, 3, 41, 59]],
  ['the whole dataset', { kind: 'all' }, Array.from({ length: N }, (_, i) => i)],
];

describe("a run's scope, worked out off the main thread", () => {
  it.each(SCOPES)('%s: the rows and size this thread finds', async (_name, scope, expected) => {
    const dataset = datasetRecord(h.db, id);
    if (!dataset) throw new Error('no dataset');
    const resolved = await resolveScope(h.db, dataset, scope, { size: true });
    expect(gridQueries(h.db).threaded).toBe(true);
    expect(resolved.rows.slice(0, resolved.rows.length)).toEqual(expected);
    const here = answerScope(h.db, {
      dataset_id: id,
      ...(scope.kind === 'filter' ? { filter: scope.filter } : {}),
      ...(scope.kind === 'selection' ? { selection: Int32Array.from(scope.indices) } : {}),
      size: true,
    });
    expect(resolved.size).toBe(here.size);
    expect(resolved.size).toBeGreaterThan(expected.length * 50);
    if (scope.kind !== 'all') expect(Array.from(here.rows ?? [])).toEqual(expected);
  });

  it('is what an estimate counts and a run covers', async () => {
    const scope: RunScope = { kind: 'filter', filter: { search: 'eggs' } };
    const estimate = await h.call('estimateRun', { dataset_id: id, operation: 'audit', scope });
    expect(estimate.samples).toBe(eggs.length);
    const run = await h.finished(
      await h.call('startRun', { dataset_id: id, operation: 'audit', scope }),
    );
    expect(run).toMatchObject({ status: 'done', total: eggs.length });
    const audited = await h.call('datasetRows', {
      dataset_id: id,
      offset: 0,
      limit: 100,
      filter: {},
    });
    expect(audited.rows.filter((row) => row.passed !== null).map((row) => row.index)).toEqual(eggs);
  });

  it('refuses a search that finds nothing, and a row outside the dataset', async () => {
    await expect(
      h.call('startRun', {
        dataset_id: id,
        operation: 'audit',
        scope: { kind: 'filter', filter: { search: 'no such words here' } },
      }),
    ).rejects.toMatchObject({ code: 'invalid_request', param: '/scope' });
    await expect(
      h.call('estimateRun', {
        dataset_id: id,
        operation: 'audit',
        scope: { kind: 'selection', indices: [1, N + 4, N] },
      }),
    ).rejects.toMatchObject({ message: `row ${N} is not in the dataset (it has ${N} rows)` });
  });
});

describe("a run's scope when the database closes", () => {
  it('fails rather than never answering', async () => {
    const closing = createHarness({ onDisk: true });
    const file = join(closing.dir, 'rows.jsonl');
    writeFileSync(
      file,
      Array.from({ length: 20 }, (_, i) => JSON.stringify({ text: `row ${i} eggs` })).join('\n'),
    );
    const imported = await closing.importFile(file, 'text', 'closing');
    const dataset = datasetRecord(closing.db, imported.id);
    if (!dataset) throw new Error('no dataset');
    const asked = resolveScope(
      closing.db,
      dataset,
      { kind: 'filter', filter: { search: 'eggs' } },
      { size: true },
    );
    // Its outcome is awaited from before the close, which rejects it at once.
    const outcome = expect(asked).rejects.toMatchObject({ code: 'service_unavailable' });
    await gridQueries(closing.db).close();
    await outcome;
  });
});
