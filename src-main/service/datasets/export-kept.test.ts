import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEPT_LISTED } from './export.ts';
import { createHarness } from './testing/harness.ts';

/**
 * An accepted fix the source schema cannot hold is exported as the row was,
 * and the export says which rows and how many: listed up to KEPT_LISTED, all
 * of them counted, each named by its row in the source file as the grid
 * names it.
 */
describe('rows an export keeps as they were', () => {
  it('counts every one, lists the first 100 with their source row, and writes them unchanged', async () => {
    const h = createHarness();
    const rows = 105;
    const source = Array.from({ length: rows }, (_, i) =>
      JSON.stringify({
        instruction: `Name colour number ${i}.`,
        input: '',
        output: `Colour ${i}.`,
      }),
    );
    const path = join(h.dir, 'alpaca.jsonl');
    writeFileSync(path, source.join('\n') + '\n');
    const ds = await h.importFile(path, 'alpaca');
    expect(ds.rows).toBe(rows);
    // An accepted repair with a fourth message: an Alpaca row holds three.
    const fourTurns = (i: number) =>
      JSON.stringify({
        task_type: 'conversation',
        messages: [
          { role: 'user', content: `Name colour number ${i}.` },
          { role: 'assistant', content: `Colour ${i}.` },
          { role: 'user', content: 'And another?' },
          { role: 'assistant', content: 'Blue.' },
        ],
        turns: 'all',
      });
    const update = h.db.prepare(
      `UPDATE dataset_rows SET fixed_json = ?, decision = 'accepted', changed = 1
       WHERE dataset_id = ? AND row_index = ?`,
    );
    for (let i = 0; i < rows; i++) update.run(fourTurns(i), ds.id, i);

    const out = join(h.dir, 'out.jsonl');
    const result = await h.call('exportDataset', { dataset_id: ds.id, format: 'jsonl', path: out });
    expect(result.rows).toBe(rows);
    expect(result.kept_rows).toBe(rows);
    expect(result.kept).toHaveLength(KEPT_LISTED);
    expect(result.kept[0]).toMatchObject({ row: 0, source_row: 1 });
    expect(result.kept[0]?.message).toMatch(/one prompt and one response, not 4 messages/);
    expect(result.kept.at(-1)).toMatchObject({ row: 99, source_row: 100 });
    expect(readFileSync(out, 'utf8')).toBe(source.join('\n') + '\n');
  });

  it('says none when every accepted fix was written', async () => {
    const h = createHarness();
    const path = join(h.dir, 'alpaca.jsonl');
    writeFileSync(
      path,
      JSON.stringify({ instruction: 'Say hi.', input: '', output: 'Hi.' }) + '\n',
    );
    const ds = await h.importFile(path, 'alpaca');
    const out = join(h.dir, 'out.jsonl');
    const result = await h.call('exportDataset', { dataset_id: ds.id, format: 'jsonl', path: out });
    expect(result).toMatchObject({ rows: 1, kept: [], kept_rows: 0 });
  });
});
