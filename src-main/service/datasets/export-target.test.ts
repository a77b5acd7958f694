import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness, dataset } from './testing/harness.ts';

const GSM8K = dataset('gsm8k_test_first300.jsonl');

/** An export never destroys what it was not asked to replace (see checkExportTarget). */
describe('where an export may write', () => {
  async function withDataset() {
    const h = createHarness({ onDisk: true });
    const ds = await h.importFile(GSM8K, 'gsm8k');
    const exportTo = (
      path: string,
      overwrite?: boolean,
      format: 'jsonl' | 'json' | 'csv' | 'parquet' = 'jsonl',
    ) =>
      h.call('exportDataset', {
        dataset_id: ds.id,
        format,
        path,
        ...(overwrite === undefined ? {} : { overwrite }),
      });
    return { h, ds, exportTo };
  }

  it('refuses an existing file unless asked to overwrite it, and leaves it as it was', async () => {
    const { h, exportTo } = await withDataset();
    const precious = join(h.dir, 'precious.txt');
    writeFileSync(precious, 'keep me\n');
    await expect(exportTo(precious)).rejects.toMatchObject({
      code: 'invalid_request',
      message: `${precious} already exists: export with "overwrite": true to replace it, or choose another path`,
    });
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
    await expect(exportTo(precious, false)).rejects.toMatchObject({ code: 'invalid_request' });

    const replaced = await exportTo(precious, true);
    expect(replaced.rows).toBe(300);
    expect(readFileSync(precious, 'utf8')).toBe(readFileSync(GSM8K, 'utf8'));
    // A new file needs no overwrite.
    expect((await exportTo(join(h.dir, 'new.jsonl'))).rows).toBe(300);
  });

  it('never replaces a file that appears while the export is written', async () => {
    const { h, exportTo } = await withDataset();
    // Three exports to one new path at once: each finds nothing there when it starts.
    const path = join(h.dir, 'raced.jsonl');
    const settled = await Promise.allSettled([exportTo(path), exportTo(path), exportTo(path)]);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    for (const failed of settled.filter((s) => s.status === 'rejected')) {
      expect(failed.reason).toMatchObject({
        code: 'invalid_request',
        message: `${path} appeared while the new file was written, and was left as it is: choose another path, or ask to replace it`,
      });
    }
    expect(readFileSync(path, 'utf8')).toBe(readFileSync(GSM8K, 'utf8'));
    // No temporary file is left beside it.
    expect(readdirSync(h.dir).filter((name) => name.includes('.partial'))).toEqual([]);
  });

  it('replaces a link at the path, never the file it points to', async () => {
    const { h, exportTo } = await withDataset();
    const target = join(h.dir, 'linked-to.txt');
    writeFileSync(target, 'keep me\n');
    const link = join(h.dir, 'link.jsonl');
    symlinkSync(target, link);
    await expect(exportTo(link)).rejects.toMatchObject({ code: 'invalid_request' });
    await exportTo(link, true);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    expect(readFileSync(link, 'utf8')).toBe(readFileSync(GSM8K, 'utf8'));
  });

  it("refuses the app's own files, whatever overwrite says, and the database still answers", async () => {
    const { h, ds, exportTo } = await withDataset();
    const dataDir = dirname(h.db.name);
    for (const name of [
      'svc.sqlite',
      'svc.sqlite-wal',
      'svc-search.sqlite',
      'svc-signatures.sqlite',
    ]) {
      await expect(exportTo(join(dataDir, name), true), name).rejects.toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining("it is one of the app's own files") as string,
      });
    }
    // The same name by another spelling of the folder.
    await expect(exportTo(join(dataDir, '..', 'data', 'svc.sqlite'), true)).rejects.toMatchObject({
      code: 'forbidden',
    });
    expect((await h.call('datasetRows', { dataset_id: ds.id, offset: 0, limit: 1 })).total).toBe(
      300,
    );
    // Other files in the data folder are the user's to write.
    expect((await exportTo(join(dataDir, 'clean.jsonl'))).rows).toBe(300);
  });

  it('refuses a relative path, a folder, a device and a missing folder', async () => {
    const { h, exportTo } = await withDataset();
    await expect(exportTo('out.jsonl')).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'export path "out.jsonl" is not absolute: give the full path of the file to write',
    });
    const folder = join(h.dir, 'a folder');
    mkdirSync(folder);
    await expect(exportTo(folder, true)).rejects.toMatchObject({
      code: 'invalid_request',
      message: `cannot export to ${folder}: it is a folder`,
    });
    await expect(exportTo('/dev/null', true)).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'cannot export to /dev/null: it is not a regular file',
    });
    // A folder that is not there is named, not the file.
    const nowhere = join(h.dir, 'no such folder', 'out.jsonl');
    await expect(exportTo(nowhere)).rejects.toMatchObject({
      code: 'invalid_request',
      message: `cannot export to ${nowhere}: the folder ${join(h.dir, 'no such folder')} does not exist`,
    });
  });

  it('refuses a name that says another format, and takes one no format claims', async () => {
    const { h, exportTo } = await withDataset();
    const csvNamed = join(h.dir, 'clean.csv');
    await expect(exportTo(csvNamed, false, 'jsonl')).rejects.toMatchObject({
      code: 'invalid_request',
      param: '/path',
      message: `cannot export JSON Lines to ${csvNamed}: its name says CSV; choose CSV, or name the file .jsonl`,
    });
    // Refused before anything is written, and an existing file is left as it was.
    expect(existsSync(csvNamed)).toBe(false);
    const existing = join(h.dir, 'keep.parquet');
    writeFileSync(existing, 'not touched');
    await expect(exportTo(existing, true, 'csv')).rejects.toMatchObject({
      message: expect.stringContaining('its name says Parquet') as unknown,
    });
    expect(readFileSync(existing, 'utf8')).toBe('not touched');

    // Case and the other JSON Lines extension are the same format; an unclaimed one is the caller's.
    expect((await exportTo(join(h.dir, 'CLEAN.JSONL'))).rows).toBe(300);
    expect((await exportTo(join(h.dir, 'clean.ndjson'))).rows).toBe(300);
    expect((await exportTo(join(h.dir, 'clean.txt'), false, 'csv')).rows).toBe(300);
    expect(readFileSync(join(h.dir, 'clean.txt'), 'utf8').split('\n')[0]).toBe('question,answer');
  });
});
