import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RowFilter } from '../../src-shared/owner/datasets.ts';
import { finishImport, insertDataset } from './datasets.ts';
import { countRows, insertRows, leanRowInserter, pageIndices } from './datasets-rows.ts';
import { openDatabase, type Db } from './db.ts';
import { indexedSearch, SEARCH_FILE, SearchIndexBuilder } from './search-index.ts';
import { FTS_AUTOMERGE, FTS_HASH_BYTES, ftsOf, partFileName } from './search-index-part.ts';
import type { LeanSearchText, RowSearch } from './search-text.ts';

/**
 * The search index (a file of its own beside the database, its schema by
 * migrations/search-index) built a transaction at a time, and a text search
 * with what it needs passed in: the index (complete or being built), and how
 * a row stored once is searched.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const N = 150;
/** Three parts of chunks of 16 rows: every part holds some of the N rows. */
const LAYOUT = { parts: 3, chunk: 16 };

/** A row is searched in its original's `text`, lowercased (the service's: every field). */
const leanText = (): LeanSearchText => ({
  prepare: () => undefined,
  text: (original) => (JSON.parse(original) as { text: string }).text.toLowerCase(),
});

/** A dataset of N rows: the even ones as imported before migration 8, the odd ones stored once. */
function database(): { dir: string; db: Db } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-search-index-'));
  dirs.push(dir);
  const db = openDatabase(dir);
  insertDataset(db, {
    id: 'ds_a',
    name: 'a',
    file_name: 'a.jsonl',
    format: 'jsonl',
    shape: 'text',
  });
  const text = (i: number): string => `Row ${i} ${i % 3 === 0 ? 'eggs' : 'ducks'}`;
  const insertLean = leanRowInserter(db, 'ds_a');
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      const original = JSON.stringify({ text: text(i) });
      if (i % 2 === 1) {
        insertLean({
          row_index: i,
          source_row: i + 1,
          task_type: 'text',
          original_json: original,
          source_raw: null,
          source_path: null,
        });
        continue;
      }
      insertRows(db, 'ds_a', [
        {
          row_index: i,
          source_row: i + 1,
          task_type: 'text',
          search_text: text(i).toLowerCase(),
          title: text(i),
          detail: '',
          original_json: original,
          sample_json: JSON.stringify({ task_type: 'text', text: text(i) }),
        },
      ]);
    }
  })();
  finishImport(db, 'ds_a', { row_count: N, error_count: 0, task_types: ['text'] });
  return { dir, db };
}

function build(index: SearchIndexBuilder): void {
  for (let i = 0; i < 1000 && index.step() !== null; i++);
}

const SEARCHES: RowFilter[] = [
  { search: 'EGGS' },
  { search: 'row 1' },
  { search: 'ducks' },
  { search: 'no such text' },
  { search: 'eg' },
  { search: 'w 1' },
  { search: 'row 1', flagged: false },
  { search: 'eg', search_field: 'text' },
  { search: 'row 12', search_field: 'text' },
];

/** Every search, counted and paged through `search`, is what a scan of the rows gives. */
function expectSameAsScan(db: Db, search: RowSearch, label: string): void {
  const scan: RowSearch = { leanText: leanText() };
  for (const filter of SEARCHES) {
    const what = `${label} ${JSON.stringify(filter)}`;
    for (const direction of ['asc', 'desc'] as const) {
      const sort = { column: 'index', direction } as const;
      const all = pageIndices(db, 'ds_a', { filter, sort, offset: 0, limit: N, search: scan });
      expect(countRows(db, 'ds_a', filter, search), what).toBe(all.length);
      expect(countRows(db, 'ds_a', filter, scan), what).toBe(all.length);
      expect(pageIndices(db, 'ds_a', { filter, sort, offset: 2, limit: 5, search }), what).toEqual(
        all.slice(2, 7),
      );
      expect(pageIndices(db, 'ds_a', { filter, sort, offset: 0, limit: N, search }), what).toEqual(
        all,
      );
    }
  }
}

/** Every row with eggs and every row with ducks found through the index as it stands now. */
function expectEggsAndDucks(db: Db): void {
  const search: RowSearch = { leanText: leanText(), index: indexedSearch(db, 'ds_a') };
  expect(countRows(db, 'ds_a', { search: 'eggs' }, search)).toBe(N / 3);
  expect(countRows(db, 'ds_a', { search: 'ducks' }, search)).toBe(N - N / 3);
}

describe('the search index', () => {
  it('answers each search as a scan of the rows does, complete or built in part', () => {
    const { db } = database();
    expect(indexedSearch(db, 'ds_a')).toBeUndefined();
    const index = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    build(index);
    expect(index.completed()).toEqual(['ds_a']);
    const complete = indexedSearch(db, 'ds_a');
    expect(complete).toMatchObject({
      parts: [0, 1, 2].map((part) => ({
        fts: `search_p${part}.fts_ds_a`,
        text: `search_p${part}.text_ds_a`,
      })),
      trigramsThrough: N - 1,
      textsThrough: N - 1,
      complete: true,
    });
    if (!complete) throw new Error('no index');
    expectSameAsScan(db, { leanText: leanText(), index: complete }, 'complete');
    // As a reader sees the index while it is built (the tables may hold more than it read).
    for (const [trigramsThrough, textsThrough] of [
      [-1, -1],
      [-1, 60],
      [40, 90],
      [15, 16],
      [N - 1, N - 1],
    ] as const) {
      const partial = { ...complete, trigramsThrough, textsThrough, complete: false };
      expectSameAsScan(db, { leanText: leanText(), index: partial }, `${textsThrough}`);
    }
    expect(countRows(db, 'ds_a', { search: 'eggs' }, { leanText: leanText() })).toBe(N / 3);
    index.close();
    db.close();
  });

  it('indexes a dataset while it imports, and completes it once imported', () => {
    const { db } = database();
    db.prepare(`UPDATE datasets SET state = 'importing'`).run();
    const index = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    // Told once every part holds the dataset's tables, with nothing in them yet.
    expect(index.step()).toMatchObject({ dataset_id: 'ds_a', indexed: 0, complete: false });
    const told = [];
    for (let progress = index.step(); progress; progress = index.step()) told.push(progress);
    // Every row in, told as the parts went on together; nothing more until the import is done.
    expect(told.at(-1)).toMatchObject({ indexed: N, total: N, complete: false });
    const indexed = told.map((progress) => progress.indexed);
    expect(indexed).toEqual([...indexed].sort((a, b) => a - b));
    expect(indexedSearch(db, 'ds_a')?.complete).toBe(false);
    db.prepare(`UPDATE datasets SET state = 'ready'`).run();
    build(index);
    expect(indexedSearch(db, 'ds_a')).toMatchObject({
      complete: true,
      trigramsThrough: N - 1,
      textsThrough: N - 1,
    });
    expect(index.step()).toBeNull();
    expect(index.completed()).toEqual(['ds_a']);
    index.close();
    db.close();
  });

  it("sets each part's trigram table to flush a chunk at once and merge 16 segments at a time", () => {
    const { dir, db } = database();
    const builder = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    build(builder);
    builder.close();
    for (let part = 0; part < LAYOUT.parts; part++) {
      const file = new Database(join(dir, partFileName(part)), { readonly: true });
      const config = Object.fromEntries(
        (
          file.prepare(`SELECT k, v FROM ${ftsOf('ds_a')}_config`).all() as {
            k: string;
            v: number;
          }[]
        ).map(({ k, v }) => [k, v]),
      );
      expect(config).toMatchObject({ hashsize: FTS_HASH_BYTES, automerge: FTS_AUTOMERGE });
      file.close();
    }
    expectEggsAndDucks(db);
    db.close();
  });

  it('keeps what each part built for the next run, and builds again a part lost', () => {
    const { dir, db } = database();
    const first = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    build(first);
    first.close();
    const again = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    expect(again.completed()).toEqual(['ds_a']);
    expect(again.step()).toBeNull();
    again.close();
    rmSync(join(dir, partFileName(1)));
    // A layout asked for now is not the one the file was made with: the file's is kept.
    const lost = new SearchIndexBuilder(db, () => leanText(), { parts: 2, chunk: 5000 });
    expect(lost.step()).toMatchObject({ complete: false });
    build(lost);
    expect(lost.completed()).toEqual(['ds_a']);
    expectEggsAndDucks(db);
    lost.close();
    db.close();
    // The index's own file deleted (the app closed), made again with another layout: the parts'
    // chunks are another layout's, so they are built anew.
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(dir, SEARCH_FILE + suffix), { force: true });
    const reopened = openDatabase(dir);
    const other = new SearchIndexBuilder(reopened, () => leanText(), { parts: 2, chunk: 7 });
    expect(other.completed()).toEqual([]);
    build(other);
    expectEggsAndDucks(reopened);
    other.close();
    reopened.close();
  });

  it('rebuilds the indexes of a file written before the narrow texts', () => {
    const { dir, db } = database();
    // The file as a previous version left it: its table made by CREATE TABLE IF NOT EXISTS.
    const old = new Database(join(dir, SEARCH_FILE));
    old.pragma('journal_mode = WAL');
    old.exec(`CREATE TABLE IF NOT EXISTS indexed (
      dataset_id TEXT PRIMARY KEY, through INTEGER NOT NULL, complete INTEGER NOT NULL)`);
    old.exec(`CREATE VIRTUAL TABLE fts_ds_a USING fts5(text, tokenize = 'trigram', content = '')`);
    const insert = old.prepare('INSERT INTO fts_ds_a (rowid, text) VALUES (?, ?)');
    // Only the rows with eggs: an index kept from the file would answer 'ducks' with none.
    for (let i = 0; i < N; i += 3) insert.run(i, `row ${i} eggs`);
    old.prepare('INSERT INTO indexed VALUES (?, ?, 1)').run('ds_a', N - 1);
    old.close();

    const index = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    expect(index.completed()).toEqual([]);
    build(index);
    expect(index.completed()).toEqual(['ds_a']);
    expectEggsAndDucks(db);
    index.close();
    db.close();

    const file = new Database(join(dir, SEARCH_FILE), { readonly: true });
    expect(file.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual([
      1, 2, 3, 4, 5,
    ]);
    // The old layout's tables are gone from the file.
    expect(
      file.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'fts%'").pluck().all(),
    ).toEqual([]);
    file.close();
  });

  it('builds again every part whose texts are of an earlier form', () => {
    const { dir, db } = database();
    // Texts of another form than the searches': an index kept from them would find no ducks.
    const earlier = (): LeanSearchText => ({
      prepare: () => undefined,
      text: (original) => leanText().text(original, null).replaceAll('ducks', 'geese'),
    });
    const first = new SearchIndexBuilder(db, earlier, LAYOUT);
    build(first);
    expect(first.completed()).toEqual(['ds_a']);
    first.close();
    // As the version before SEARCH_TEXT_FORM left the files: its form 0, migration 5 not applied.
    for (let part = 0; part < LAYOUT.parts; part++) {
      const file = new Database(join(dir, partFileName(part)));
      file.exec('UPDATE part_layout SET text_form = 0');
      file.close();
    }
    const meta = new Database(join(dir, SEARCH_FILE));
    meta.exec('DELETE FROM schema_migrations WHERE version = 5');
    meta.close();

    const index = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    expect(index.completed()).toEqual([]);
    expect(indexedSearch(db, 'ds_a')).toBeUndefined();
    build(index);
    expect(index.completed()).toEqual(['ds_a']);
    expectEggsAndDucks(db);
    index.close();
    db.close();
  });

  it('drops the index of a dataset deleted', () => {
    const { db } = database();
    const index = new SearchIndexBuilder(db, () => leanText(), LAYOUT);
    build(index);
    db.prepare('DELETE FROM datasets').run();
    expect(index.step()).toBeNull();
    expect(index.completed()).toEqual([]);
    expect(indexedSearch(db, 'ds_a')).toBeUndefined();
    index.close();
    db.close();
  });
});

describe('a search over rows stored once', () => {
  it('needs their search text passed in', () => {
    const { db } = database();
    expect(() => countRows(db, 'ds_a', { search: 'eggs' })).toThrow(/search text/);
    expect(countRows(db, 'ds_a', { search: 'eggs' }, { leanText: leanText() })).toBe(N / 3);
    db.close();
  });
});
