import { mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import type { ImportBatch, MappingColumns } from './import-batch.ts';
import {
  checkSameFile,
  fileIdentity,
  READ_AHEAD,
  READ_HERE_FIRST,
  readImportBatches,
  type ImportReadOptions,
} from './import-reader.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-import-reader-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const gsm8kLines = (rows: number): string[] =>
  Array.from({ length: rows }, (_, i) =>
    JSON.stringify({
      question: `Row ${i}: Tom has ${i % 97} apples and buys ${i % 13} more. How many now?`,
      answer: `He has ${(i % 97) + (i % 13)}.\n#### ${(i % 97) + (i % 13)}`,
    }),
  );

interface Read {
  mappings: MappingColumns[];
  batches: ImportBatch[];
}

async function read(
  path: string,
  options: Omit<ImportReadOptions, 'onMapping'>,
  offThread: boolean,
): Promise<Read> {
  const mappings: MappingColumns[] = [];
  const batches: ImportBatch[] = [];
  const reading = readImportBatches(
    path,
    1,
    { ...options, onMapping: (columns) => mappings.push(columns) },
    { offThreadFromBytes: offThread ? 0 : 2 },
  );
  for await (const batch of reading) batches.push(batch);
  return { mappings, batches };
}

/** The batches' columns end to end (how a file is cut into batches is the reader's own). */
function flat({ batches }: Read): Omit<ImportBatch, never> {
  return {
    sourceRows: batches.flatMap((b) => b.sourceRows),
    taskTypes: batches.flatMap((b) => b.taskTypes),
    originals: batches.flatMap((b) => b.originals),
    raws: batches.flatMap((b) => b.raws),
    paths: batches.flatMap((b) => b.paths),
    errors: batches.flatMap((b) => b.errors),
  };
}

const CASES: [string, string, Omit<ImportReadOptions, 'onMapping'>][] = [
  [
    'JSON Lines, detected, with a broken line and a row that does not map',
    [...gsm8kLines(3000), '{"question": "no answer"', ...gsm8kLines(5)].join('\n') + '\n',
    { format: 'jsonl' },
  ],
  [
    'JSON Lines, a shape forced that some rows do not fit',
    [...gsm8kLines(40), JSON.stringify({ text: 'a text, not a question' })].join('\n'),
    { format: 'jsonl', shape: 'gsm8k' },
  ],
  [
    'CSV through a field mapping',
    'title,body\n' +
      Array.from({ length: 1500 }, (_, i) => `t${i},"body ${i}, with a comma"`).join('\n'),
    { format: 'csv', mapping: { task_type: 'text', fields: { text: 'body' } } },
  ],
  ['a JSON array', `[${gsm8kLines(2500).join(',')}]`, { format: 'json' }],
];

describe('the import reader', () => {
  it.each(CASES)('reads %s on a worker as it reads it here', async (name, text, options) => {
    const path = file(`${name.replace(/\W+/g, '-')}.${options.format}`, text);
    const here = await read(path, options, false);
    const there = await read(path, options, true);
    expect(here.batches.length).toBeGreaterThan(0);
    expect(flat(there)).toEqual(flat(here));
    expect(there.mappings).toEqual(here.mappings);
    expect(here.mappings).toHaveLength(1);
  });

  it('keeps rows that cannot be read as errors with their row number, on a worker too', async () => {
    const path = file('errors.jsonl', [...gsm8kLines(2), 'not json', ...gsm8kLines(1)].join('\n'));
    const there = flat(await read(path, { format: 'jsonl', shape: 'gsm8k' }, true));
    expect(there.sourceRows).toEqual([1, 2, 4]);
    expect(there.errors).toHaveLength(1);
    expect(there.errors[0]?.row).toBe(3);
  });

  it('reads the rest here when its worker cannot start, each row once', async () => {
    const path = file('no-worker.jsonl', gsm8kLines(5000).join('\n'));
    const options = { format: 'jsonl' as const, onMapping: () => undefined };
    const batches: ImportBatch[] = [];
    const reading = readImportBatches(path, 1, options, {
      offThreadFromBytes: 0,
      script: new URL('./no-such-reader-worker.ts', import.meta.url),
    });
    for await (const batch of reading) batches.push(batch);
    const here = await read(path, { format: 'jsonl' }, false);
    expect(flat({ mappings: [], batches })).toEqual(flat(here));
    expect(flat(here).sourceRows).toHaveLength(5000);
  });

  it('fails with the error the worker met, rebuilt as it was thrown there', async () => {
    const path = file('fails-later.jsonl', gsm8kLines(5000).join('\n'));
    const reading = readImportBatches(
      path,
      1,
      { format: 'jsonl', onMapping: () => undefined },
      {
        offThreadFromBytes: 0,
        script: new URL('./testing/failing-reader-worker.ts', import.meta.url),
      },
    );
    let rows = 0;
    const error = await (async () => {
      for await (const batch of reading) rows += batch.sourceRows.length;
    })().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    // The rows read on this thread came first; the worker's failure names the row after them.
    expect(rows).toBeGreaterThanOrEqual(READ_HERE_FIRST);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'invalid_request',
      param: 'source',
      message: `the file could not be read after row ${rows}`,
    });
  });

  it("fails on the first rows with the error this thread's reading gives", async () => {
    // Rows of no known shape, and no mapping given: the reading fails on the first rows.
    const path = file('shapeless.jsonl', '{"foo": 1, "bar": "x"}\n'.repeat(50));
    const failure = async (offThread: boolean): Promise<unknown> =>
      read(path, { format: 'jsonl' }, offThread).then(
        () => 'no error',
        (error: unknown) => error,
      );
    const here = await failure(false);
    const there = await failure(true);
    expect(here).toBeInstanceOf(Error);
    expect(there).toBeInstanceOf(here instanceof AppError ? AppError : Error);
    expect((there as Error).message).toBe((here as Error).message);
    if (here instanceof AppError) expect((there as AppError).code).toBe(here.code);
  });

  it('reads at most READ_AHEAD batches ahead of the import, and ends when it stops early', async () => {
    const path = file('long.jsonl', gsm8kLines(100_000).join('\n'));
    let most = 0;
    const reading = readImportBatches(
      path,
      1,
      { format: 'jsonl', onMapping: () => undefined },
      { offThreadFromBytes: 0, onWaiting: (waiting) => (most = Math.max(most, waiting)) },
    );
    expect((await reading.next()).done).toBe(false);
    // A while for the worker to read ahead as far as it may (the whole file: ~100 batches): until
    // it is at its bound (up to 10 s on a busy machine; it had 1.5 s, and under a parallel CI run
    // it had not started reading yet), then a while more in which it must not pass it.
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let waited = 0; waited < 10_000 && most < READ_AHEAD + 1; waited += 100) await sleep(100);
    await sleep(500);
    // The batches it may read ahead, and the mapping told before them.
    expect(most).toBeLessThanOrEqual(READ_AHEAD + 1);
    expect(most).toBeGreaterThan(1);
    const ended = await reading.return(undefined);
    expect(ended.done).toBe(true);
  });

  it('never gives an import the first rows of one file and the rest of another', async () => {
    const path = file('replaced.jsonl', gsm8kLines(6000).join('\n'));
    const other = file(
      'replacement.jsonl',
      gsm8kLines(6000)
        .map((l) => l.replace('Tom', 'Ann'))
        .join('\n'),
    );
    const reading = readImportBatches(
      path,
      1,
      { format: 'jsonl', onMapping: () => undefined },
      {
        offThreadFromBytes: 0,
      },
    );
    const originals: string[] = [];
    let error: unknown;
    try {
      for await (const batch of reading) {
        // Replaced once the first rows are read here, while the worker is starting.
        if (originals.length === 0) renameSync(other, path);
        originals.push(...batch.originals);
      }
    } catch (caught) {
      error = caught;
    }
    // Either the import stops with the reason, or (had the worker opened the file first) it read one file.
    const from = new Set(originals.map((o) => (o.includes('Tom has') ? 'first' : 'second')));
    expect(from.size).toBe(1);
    if (error !== undefined) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as Error).message).toMatch(/replaced\.jsonl changed while it was imported/);
    } else expect(originals).toHaveLength(6000);
  });

  it('tells a file replaced, rewritten, touched or deleted since the import began', () => {
    const path = file('identity.jsonl', gsm8kLines(3).join('\n'));
    const began = fileIdentity(path);
    expect(() => checkSameFile(path, began)).not.toThrow();
    const changed = /identity\.jsonl changed while it was imported/;
    writeFileSync(path, gsm8kLines(4).join('\n'));
    expect(() => checkSameFile(path, began)).toThrow(changed);
    const rewritten = fileIdentity(path);
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(() => checkSameFile(path, rewritten)).toThrow(changed);
    const touched = fileIdentity(path);
    renameSync(file('identity-2.jsonl', gsm8kLines(4).join('\n')), path);
    expect(() => checkSameFile(path, touched)).toThrow(changed);
    const replaced = fileIdentity(path);
    rmSync(path);
    expect(() => checkSameFile(path, replaced)).toThrow(changed);
  });
});
