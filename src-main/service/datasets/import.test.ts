import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OwnerEvent } from '../../../src-shared/owner-api.ts';
import {
  DatasetSummary,
  ImportPreview,
  RowsQuery,
  type RowsPage,
  type ShapeId,
} from '../../../src-shared/owner/datasets.ts';
import { SHAPES } from '../../engine/shapes/index.ts';
import { writeRows } from '../../files/index.ts';
import { datasetRecord } from '../../store/datasets.ts';
import { FIRST_BATCH_ROWS } from './import.ts';
import { datasetRows } from './rows.ts';
import { readyDataset, summaryOf } from './summary.ts';
import { createHarness, dataset } from './testing/harness.ts';

const REAL: [string, ShapeId, number, string][] = [
  ['gsm8k_test_first300.jsonl', 'gsm8k', 300, 'question_answer'],
  ['hellaswag_val_sample200.jsonl', 'hellaswag', 200, 'multiple_choice'],
  ['truthfulqa_mc_task_first200.jsonl', 'truthfulqa_mc', 200, 'multiple_choice'],
  ['commonsenseqa_validation_first200.jsonl', 'commonsenseqa', 200, 'multiple_choice'],
  ['oasst_en_100_trees.jsonl', 'oasst', 100, 'conversation'],
];

const lines = (path: string): string[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');

describe('importPreview', () => {
  it.each(REAL)('detects %s as %s and maps its first rows', async (file, shape) => {
    const h = createHarness();
    const preview = ImportPreview.parse(
      await h.call('importPreview', { source: { path: dataset(file) } }),
    );
    expect(preview).toMatchObject({ file_name: file, format: 'jsonl', detected: shape, shape });
    expect(preview.confidence).toBe(1);
    expect(preview.bytes).toBe(readFileSync(dataset(file)).length);
    expect(preview.rows).toHaveLength(20);
    for (const row of preview.rows) {
      expect(row.error).toBeNull();
      expect(row.sample).not.toBeNull();
      expect(row.original).not.toBeNull();
    }
    expect(preview.shapes.map((s) => s.id)).toEqual(SHAPES.map((s) => s.id));
  });

  it('maps with a forced shape and reports rows that do not fit it', async () => {
    const h = createHarness();
    const preview = await h.call('importPreview', {
      source: { path: dataset('gsm8k_test_first300.jsonl') },
      shape: 'text',
    });
    expect(preview.detected).toBe('gsm8k');
    expect(preview.shape).toBe('text');
    expect(preview.rows[0]?.sample).toBeNull();
    expect(preview.rows[0]?.error).toMatch(/text/);
  });

  it('guesses a mapping from the field names when no shape matches, and lists the fields', async () => {
    const h = createHarness();
    const preview = await h.call('importPreview', {
      source: { path: dataset('ftfy_mojibake_cases.jsonl') },
    });
    expect(preview.detected).toBeNull();
    expect(preview.shape).toBe('custom');
    expect(preview.guessed).toBe(true);
    expect(preview.mapping).toEqual({ task_type: 'text', fields: { text: 'original' } });
    expect(preview.fields.map((f) => f.path)).toEqual(
      expect.arrayContaining(['label', 'comment', 'original', 'fixed', 'expect']),
    );
    expect(preview.mapped).toBe(20);
    const first = JSON.parse(
      readFileSync(dataset('ftfy_mojibake_cases.jsonl'), 'utf8').split('\n')[0] ?? '{}',
    ) as { original: string; label: string };
    // The text from `original`; the other fields stay as metadata.
    expect(preview.rows[0]?.sample).toMatchObject({
      task_type: 'text',
      text: first.original,
      label: first.label,
    });
  });

  it('says row by row why a mapping maps nothing', async () => {
    const h = createHarness();
    const preview = await h.call('importPreview', {
      source: { path: dataset('ftfy_mojibake_cases.jsonl') },
      mapping: { task_type: 'text', fields: { text: 'nope' } },
    });
    expect(preview.shape).toBe('custom');
    expect(preview.mapped).toBe(0);
    expect(preview.rows[0]?.error).toMatch(/"nope" \(text\) is missing/);
  });

  it('imports with a mapping, keeps it, and exports only the accepted repairs', async () => {
    const h = createHarness();
    const source = dataset('ftfy_mojibake_cases.jsonl');
    const mapping = { task_type: 'text', fields: { text: 'original' } } as const;
    const ds = await h.call('importDataset', {
      source: { path: source },
      shape: 'custom',
      mapping,
      name: 'ftfy',
    });
    expect(ds).toMatchObject({ shape: 'custom', mapping, rows: 111, errors: 0 });
    const out = join(h.dir, 'ftfy.out.jsonl');
    await h.call('exportDataset', { dataset_id: ds.id, format: 'jsonl', path: out });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(source, 'utf8'));
  });

  it('reads uploads through the upload registry', async () => {
    const h = createHarness();
    h.uploads.set('up_1', dataset('gsm8k_test_first300.jsonl'));
    const preview = await h.call('importPreview', { source: { upload_id: 'up_1' } });
    expect(preview.detected).toBe('gsm8k');
  });

  it('refuses a file it cannot read', async () => {
    const h = createHarness();
    await expect(
      h.call('importPreview', { source: { path: join(h.dir, 'missing.jsonl') } }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: /no such file/ });
    writeFileSync(join(h.dir, 'data.txt'), 'hello\n');
    await expect(
      h.call('importPreview', { source: { path: join(h.dir, 'data.txt') } }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: /unknown format/ });
    // A folder has no extension either: it is named as a folder, not as a format.
    await expect(
      h.call('importDataset', { source: { path: h.dir }, shape: 'text', name: 'folder' }),
    ).rejects.toMatchObject({ code: 'invalid_request', message: /: not a file$/ });
  });
});

describe('importDataset', () => {
  it.each(REAL)('imports %s (%s): every row, in order', async (file, shape, count, taskType) => {
    const h = createHarness();
    const summary = DatasetSummary.parse(await h.importFile(dataset(file), shape, file));
    expect(summary).toMatchObject({
      name: file,
      file_name: file,
      format: 'jsonl',
      shape,
      task_types: [taskType],
      rows: count,
      errors: 0,
      audited: 0,
      failed: 0,
      changed: 0,
      flagged: 0,
      accepted: 0,
    });
    expect(summary.id).toMatch(/^ds_[0-9a-f]{16}$/);
    expect(await h.call('listDatasets', {})).toEqual([summary]);
    const first = await h.call('datasetRow', { dataset_id: summary.id, index: 0 });
    expect(JSON.stringify(first.original)).toBe(
      JSON.stringify(JSON.parse(lines(dataset(file))[0]!)),
    );
    expect(first.sample.task_type).toBe(taskType);
    expect(first).toMatchObject({ audit: null, fix: null, reaudit: null, fixed_sample: null });
  });

  it('stores the rows it cannot read or map as errors with their row numbers', async () => {
    const h = createHarness();
    const good = lines(dataset('gsm8k_test_first300.jsonl')).slice(0, 10);
    const file = join(h.dir, 'broken.jsonl');
    writeFileSync(
      file,
      [
        ...good.slice(0, 3),
        '{"question": "cut off", "answ',
        good[3],
        '[1, 2, 3]',
        '{"question": "no answer here"}',
        ...good.slice(4),
      ].join('\n') + '\n',
    );
    const summary = await h.importFile(file, 'gsm8k');
    expect(summary).toMatchObject({ rows: 10, errors: 3 });
    const errors = await h.call('importErrors', { dataset_id: summary.id });
    expect(errors.map((e) => e.row)).toEqual([4, 6, 7]);
    expect(errors[0]?.message).toMatch(/invalid JSON/);
    expect(errors[1]?.message).toMatch(/object/);
    expect(errors[2]?.message).toMatch(/answer/);
    const row = await h.call('datasetRow', { dataset_id: summary.id, index: 3 });
    expect(row.source_row).toBe(5);
  });

  it('refuses a JSON array that breaks off, in its preview or its import, and keeps nothing', async () => {
    const h = createHarness();
    const rows = lines(dataset('gsm8k_test_first300.jsonl')).slice(0, 200);
    // A comma missing after the third element: the probe's file, whose 197 later rows were lost.
    const early = join(h.dir, 'early.json');
    writeFileSync(early, `[${rows.slice(0, 3).join(',\n')}\n${rows.slice(3).join(',\n')}]\n`);
    await expect(h.call('importPreview', { source: { path: early } })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('its JSON breaks off after row 3') as unknown,
    });
    await expect(h.importFile(early, 'gsm8k')).rejects.toMatchObject({
      message: expect.stringContaining('its JSON breaks off after row 3') as unknown,
    });
    // Past what the preview reads: the preview shows the first rows, the import is refused.
    const late = join(h.dir, 'late.json');
    writeFileSync(late, `[${rows.slice(0, 150).join(',\n')}\n${rows.slice(150).join(',\n')}]\n`);
    const preview = await h.call('importPreview', { source: { path: late } });
    expect(preview.rows.length).toBeGreaterThan(0);
    await expect(h.importFile(late, 'gsm8k')).rejects.toMatchObject({
      message: expect.stringContaining('its JSON breaks off after row 150') as unknown,
    });
    expect(await h.call('listDatasets', {})).toEqual([]);
  });

  it('takes rows with task_type as samples, whatever the shape', async () => {
    const h = createHarness();
    const file = join(h.dir, 'mixed.jsonl');
    writeFileSync(
      file,
      [
        { text: 'A plain row.' },
        { task_type: 'question_answer', question: 'What is 2 + 2?', answer: '4', id: 7 },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );
    const summary = await h.importFile(file, 'text');
    expect(summary.task_types).toEqual(['question_answer', 'text']);
    const row = await h.call('datasetRow', { dataset_id: summary.id, index: 1 });
    expect(row.sample).toEqual({
      task_type: 'question_answer',
      question: 'What is 2 + 2?',
      answer: '4',
      id: 7,
    });
  });

  it('names the first line holding bytes that are not UTF-8, in JSON Lines and CSV', async () => {
    const h = createHarness();
    // A Windows-1252 apostrophe (0x92) in the third line: read as U+FFFD.
    const cp1252 = (before: string, after: string): Buffer =>
      Buffer.concat([Buffer.from(before), Buffer.from([0x92]), Buffer.from(after)]);
    const jsonl = join(h.dir, 'cp1252.jsonl');
    writeFileSync(jsonl, cp1252('{"text":"One."}\n{"text":"Two."}\n{"text":"It', 's three."}\n'));
    const summary = await h.importFile(jsonl, 'text');
    expect(summary).toMatchObject({ rows: 3, errors: 0, not_utf8_line: 3 });
    const row = await h.call('datasetRow', { dataset_id: summary.id, index: 2 });
    expect(row.original).toEqual({ text: 'It\ufffds three.' });
    // The same from the list, after the import.
    const listed = (await h.call('listDatasets', {})).find((d) => d.id === summary.id);
    expect(listed?.not_utf8_line).toBe(3);

    const csv = join(h.dir, 'cp1252.csv');
    writeFileSync(csv, cp1252('text\nOne.\nIt', 's two.\n'));
    expect(await h.importFile(csv, 'text')).toMatchObject({ rows: 2, not_utf8_line: 3 });

    const clean = join(h.dir, 'clean.jsonl');
    writeFileSync(clean, '{"text":"It’s fine: é€𝄞."}\n');
    expect(await h.importFile(clean, 'text')).toMatchObject({ rows: 1, not_utf8_line: null });
  });

  it('imports CSV and Parquet files', async () => {
    const h = createHarness();
    const rows = lines(dataset('commonsenseqa_validation_first200.jsonl'))
      .slice(0, 50)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const format of ['csv', 'parquet', 'json'] as const) {
      const file = join(h.dir, `csqa.${format}`);
      await writeRows(file, format, rows);
      const summary = await h.importFile(file, 'commonsenseqa', format);
      expect(summary).toMatchObject({ format, rows: 50, errors: 0 });
      const row = await h.call('datasetRow', { dataset_id: summary.id, index: 49 });
      expect(row.original).toEqual(rows[49]);
    }
  });

  it('keeps CSV text that merely looks like JSON as text where the shape wants text', async () => {
    const h = createHarness();
    // An Alpaca output that is a list in prose, beside a cell that really is JSON.
    const file = join(h.dir, 'alpaca.csv');
    writeFileSync(
      file,
      'instruction,input,output,tags\n' +
        'List the primes between 6 and 12.,,"[7, 8, 9, 11]","[""math""]"\n' +
        'Name a colour.,,Red.,[]\n',
    );
    const preview = await h.call('importPreview', { source: { path: file } });
    expect(preview.detected).toBe('alpaca');
    expect(preview.rows.map((r) => r.error)).toEqual([null, null]);
    const summary = await h.importFile(file, 'alpaca', 'alpaca');
    expect(summary).toMatchObject({ rows: 2, errors: 0 });
    const row = await h.call('datasetRow', { dataset_id: summary.id, index: 0 });
    const conversation = row.sample as { messages: { content: string }[] };
    expect(conversation.messages.at(-1)?.content).toBe('[7, 8, 9, 11]');
    // the row is kept as its text, so an export writes the cells back as they were
    expect(row.original).toEqual({
      instruction: 'List the primes between 6 and 12.',
      input: '',
      output: '[7, 8, 9, 11]',
      tags: '["math"]',
    });
  });

  it('emits throttled progress and a final done event', async () => {
    const h = createHarness();
    const summary = await h.importFile(dataset('oasst_en_100_trees.jsonl'), 'oasst', 'trees');
    const bytes = readFileSync(dataset('oasst_en_100_trees.jsonl')).length;
    const events = h.received.map((event) => OwnerEvent.parse(event));
    const last = events.at(-1);
    expect(last).toEqual({
      type: 'import',
      dataset_id: summary.id,
      name: 'trees',
      asked_name: 'trees',
      rows: 100,
      errors: 0,
      bytes_read: bytes,
      bytes_total: bytes,
      done: true,
    });
    expect(events.filter((e) => e.type === 'import' && e.done)).toHaveLength(1);
  });

  it('shows its first rows while the rest imports, and nothing but reading them', async () => {
    const h = createHarness();
    // Four copies of GSM8K's 300 rows: more than the first batch, less than a full one.
    const file = join(h.dir, 'four-times.jsonl');
    const source = lines(dataset('gsm8k_test_first300.jsonl'));
    writeFileSync(file, [...source, ...source, ...source, ...source].join('\n') + '\n');
    expect(source.length * 4).toBeGreaterThan(FIRST_BATCH_ROWS);
    const seen: { summary: DatasetSummary; page: RowsPage; refused: unknown }[] = [];
    const stop = h.events.subscribe((event) => {
      if (event.type !== 'import' || event.done || event.rows === 0 || seen.length > 0) return;
      const record = datasetRecord(h.db, event.dataset_id);
      if (!record) throw new Error('the dataset being imported is not stored');
      let refused: unknown = null;
      try {
        readyDataset(h.db, event.dataset_id);
      } catch (error) {
        refused = error;
      }
      seen.push({
        summary: summaryOf(h.db, record),
        page: datasetRows(
          h.db,
          RowsQuery.parse({ dataset_id: event.dataset_id, offset: 0, limit: 10 }),
        ),
        refused,
      });
    });
    const done = await h.importFile(file, 'gsm8k', 'growing');
    stop();
    const [first] = seen;
    if (!first) throw new Error('no import event came before the import ended');
    // The first batch was committed and announced at once, the rest still to come.
    // (Rows are read in chunks: the first batch is the chunk that reached FIRST_BATCH_ROWS.)
    expect(first.summary).toMatchObject({ id: done.id, state: 'importing' });
    expect(first.summary.rows).toBeGreaterThanOrEqual(FIRST_BATCH_ROWS);
    expect(first.summary.rows).toBeLessThan(source.length * 4);
    expect(first.summary.task_types).toEqual(['question_answer']);
    expect(first.page.total).toBe(first.summary.rows);
    expect(first.page.rows.map((row) => row.source_row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const question = (JSON.parse(source[0] ?? '{}') as { question: string }).question;
    expect(first.page.rows[0]?.title).toContain(question.slice(0, 20));
    // Runs, decisions and exports wait for the import to end.
    expect(first.refused).toMatchObject({ code: 'not_found' });
    expect((first.refused as Error).message).toMatch(
      /^dataset "growing" \(ds_\w+\) is still importing \(\d+ rows so far\)/,
    );
    expect(done).toMatchObject({ state: 'ready', rows: source.length * 4 });
    expect(await h.call('listDatasets', {})).toMatchObject([{ id: done.id, state: 'ready' }]);
  });

  it('refuses a file none of whose rows fit, and keeps nothing of it', async () => {
    const h = createHarness();
    await expect(h.importFile(dataset('ftfy_mojibake_cases.jsonl'), 'gsm8k')).rejects.toMatchObject(
      { code: 'invalid_request', message: /none of the 111 rows/ },
    );
    expect(await h.call('listDatasets', {})).toEqual([]);
    expect(h.db.prepare('SELECT count(*) AS n FROM datasets').get()).toEqual({ n: 0 });
  });

  it('stops an import when its dataset is deleted, and keeps nothing of it', async () => {
    const h = createHarness();
    // Forty copies of GSM8K's 300 rows: many batches after the first.
    const file = join(h.dir, 'forty-times.jsonl');
    const source = lines(dataset('gsm8k_test_first300.jsonl'));
    writeFileSync(file, Array.from({ length: 40 }, () => source.join('\n')).join('\n') + '\n');
    const deletes: Promise<unknown>[] = [];
    const stop = h.events.subscribe((event) => {
      if (event.type !== 'import' || event.done || event.rows === 0 || deletes.length > 0) return;
      deletes.push(h.call('deleteDataset', { dataset_id: event.dataset_id }));
    });
    const importing = h.importFile(file, 'gsm8k', 'unwanted');
    await expect(importing).rejects.toMatchObject({
      code: 'cancelled',
      message: expect.stringMatching(
        /^the import of unwanted was stopped: the dataset was deleted while it imported \(\d+ rows read\)$/,
      ) as string,
    });
    stop();
    expect(deletes).toHaveLength(1);
    expect(await deletes[0]).toEqual({ updated: 1 });
    expect(await h.call('listDatasets', {})).toEqual([]);
    expect(h.db.prepare('SELECT count(*) AS n FROM datasets').get()).toEqual({ n: 0 });
    expect(h.db.prepare('SELECT count(*) AS n FROM dataset_rows').get()).toEqual({ n: 0 });
    // The next import of the same file is whole.
    expect(await h.importFile(file, 'gsm8k', 'wanted')).toMatchObject({ rows: 12_000 });
  });

  it('names a second import of a name in use "name (2)", and a name freed by a delete is free', async () => {
    const h = createHarness();
    const file = dataset('gsm8k_test_first300.jsonl');
    const first = await h.importFile(file, 'gsm8k', 'gsm8k');
    const second = await h.importFile(file, 'gsm8k', 'gsm8k');
    const third = await h.importFile(file, 'gsm8k', 'gsm8k');
    expect([first.name, second.name, third.name]).toEqual(['gsm8k', 'gsm8k (2)', 'gsm8k (3)']);
    // The import's progress names it so too.
    const named = h.received.flatMap((e) => (e.type === 'import' && e.done ? [e.name] : []));
    expect(named).toEqual(['gsm8k', 'gsm8k (2)', 'gsm8k (3)']);
    expect((await h.call('listDatasets', {})).map((d) => d.name).sort()).toEqual([
      'gsm8k',
      'gsm8k (2)',
      'gsm8k (3)',
    ]);
    await h.call('deleteDataset', { dataset_id: second.id });
    expect((await h.importFile(file, 'gsm8k', 'gsm8k')).name).toBe('gsm8k (2)');
  });

  it('deletes a dataset with its rows and errors', async () => {
    const h = createHarness();
    const summary = await h.importFile(dataset('gsm8k_test_first300.jsonl'), 'gsm8k');
    expect(await h.call('deleteDataset', { dataset_id: summary.id })).toEqual({ updated: 1 });
    expect(await h.call('listDatasets', {})).toEqual([]);
    expect(h.db.prepare('SELECT count(*) AS n FROM dataset_rows').get()).toEqual({ n: 0 });
    await expect(h.call('deleteDataset', { dataset_id: summary.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
