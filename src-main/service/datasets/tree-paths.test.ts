import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationSample } from '../../../src-shared/schemas/sample.ts';
import { oasstPaths } from '../../engine/shapes/oasst-paths.ts';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

/**
 * OpenAssistant trees imported along every path: a row per root-to-leaf
 * path, each tree written back once by the export with the accepted repairs
 * of all its paths, and unchanged trees byte for byte.
 */

type Row = Record<string, unknown>;

const OASST = dataset('oasst_en_100_trees.jsonl');
const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter(Boolean);

async function importAllPaths(h: Harness, path = OASST) {
  return h.call('importDataset', { source: { path }, shape: 'oasst', paths: 'all', name: 'oa' });
}

async function exported(h: Harness, datasetId: string, extra: object = {}) {
  const path = join(h.dir, `out-${Date.now()}.jsonl`);
  const result = await h.call('exportDataset', {
    dataset_id: datasetId,
    format: 'jsonl',
    path,
    ...extra,
  });
  return { result, lines: lines(path) };
}

describe('OASST trees imported along every path', () => {
  it('previews and imports a row per path, and says so in the summary', async () => {
    const h = createHarness();
    const preview = await h.call('importPreview', { source: { path: OASST }, paths: 'all' });
    expect(preview.paths).toBe('all');
    expect(preview.rows).toHaveLength(20);
    expect(preview.rows[0]).toMatchObject({ row: 1, path: '1 of 3', error: null });
    const best = await h.call('importPreview', { source: { path: OASST } });
    expect(best.paths).toBe('best');
    expect(best.rows[0]?.path).toBeNull();

    const ds = await importAllPaths(h);
    expect(ds).toMatchObject({ rows: 626, errors: 0, paths: 'all', shape: 'oasst' });
    const detail = await h.call('datasetRow', { dataset_id: ds.id, index: 1 });
    expect(detail.source_row).toBe(1);
    const [, second] = oasstPaths(JSON.parse(lines(OASST)[0] as string) as Row);
    expect((detail.sample as ConversationSample).messages).toEqual(
      (second?.sample as ConversationSample).messages,
    );
  });

  it('refuses every path for rows that are not trees', async () => {
    const h = createHarness();
    await expect(
      h.call('importDataset', {
        source: { path: dataset('gsm8k_test_first300.jsonl') },
        shape: 'gsm8k',
        paths: 'all',
        name: 'g',
      }),
    ).rejects.toThrow(/every path applies to OpenAssistant message trees/);
  });

  it('exports each tree once: unchanged trees byte for byte, accepted repairs on every path', async () => {
    const h = createHarness();
    const ds = await importAllPaths(h);
    const untouched = await exported(h, ds.id);
    expect(untouched.lines).toEqual(lines(OASST));

    const run = await h.finished(
      await h.call('startRun', { dataset_id: ds.id, operation: 'fix', scope: { kind: 'all' } }),
    );
    expect(run.status).toBe('done');
    const accepted = await h.call('decide', {
      dataset_id: ds.id,
      filter: { changed: true },
      decision: 'accepted',
    });
    expect(accepted.updated).toBeGreaterThan(50);
    const { result, lines: out } = await exported(h, ds.id);
    expect(result.kept).toEqual([]);
    expect(out).toHaveLength(100);

    // Every path of every exported tree reads as the accepted fix, or the import when none.
    const rows = await h.call('datasetRows', { dataset_id: ds.id, offset: 0, limit: 1000 });
    let index = 0;
    let changedTrees = 0;
    for (const [i, line] of out.entries()) {
      if (line !== lines(OASST)[i]) changedTrees++;
      for (const path of oasstPaths(JSON.parse(line) as Row)) {
        const row = rows.rows[index];
        const detail = await h.call('datasetRow', { dataset_id: ds.id, index: index++ });
        expect(row?.source_row).toBe(i + 1);
        const expected =
          detail.decision === 'accepted' ? detail.fixed_sample : (detail.sample as Row);
        expect((path.sample as ConversationSample).messages).toEqual(
          (expected as ConversationSample).messages,
        );
      }
    }
    expect(index).toBe(626);
    expect(changedTrees).toBeGreaterThan(10);
    expect(changedTrees).toBeLessThan(100);
  });

  it('lists two paths that repaired a shared message differently, writing neither', async () => {
    const h = createHarness();
    const tree = {
      id: 't',
      prompt: {
        text: 'Hi',
        role: 'prompter',
        replies: [
          { text: 'Hello.', role: 'assistant', replies: [] },
          { text: 'Hey.', role: 'assistant', replies: [] },
        ],
      },
    };
    const path = join(h.dir, 'tree.jsonl');
    writeFileSync(path, JSON.stringify(tree) + '\n');
    const ds = await importAllPaths(h, path);
    expect(ds.rows).toBe(2);
    // Two accepted manual repairs of the shared prompt that disagree.
    const fix = (text: string) => ({
      task_type: 'conversation',
      messages: [
        { role: 'user', content: text },
        { role: 'assistant', content: 'Hello.' },
      ],
      turns: 'all',
      id: 't',
    });
    const update = h.db.prepare(
      `UPDATE dataset_rows SET fixed_json = ?, decision = 'accepted', changed = 1
       WHERE dataset_id = ? AND row_index = ?`,
    );
    update.run(JSON.stringify(fix('Hi!')), ds.id, 0);
    update.run(JSON.stringify(fix('Hi?')), ds.id, 1);
    const { result, lines: out } = await exported(h, ds.id);
    expect(result.kept.map((k) => k.row)).toEqual([0, 1]);
    // Two paths of the file's first row (one tree), both counted.
    expect(result.kept.map((k) => k.source_row)).toEqual([1, 1]);
    expect(result.kept_rows).toBe(2);
    expect(result.kept[0]?.message).toMatch(/shared with row 1, which repaired it differently/);
    expect(out).toEqual([JSON.stringify(tree)]);

    const verdicts = await exported(h, ds.id, { include_verdicts: true });
    expect(JSON.parse(verdicts.lines[0] as string)).toMatchObject({
      svc_decision: 'accepted',
      svc_flagged: false,
    });
  });
});
