import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RowFilter } from '../../src-shared/owner/datasets.ts';
import { finishImport, insertDataset } from './datasets.ts';
import { countRows, insertRows, leanRowInserter, pageIndices } from './datasets-rows.ts';
import { openDatabase, type Db } from './db.ts';
import { SEARCH_FILE, SearchIndex } from './search-index.ts';
import type { LeanSearchText, RowSearch } from './search-text.ts';

/**
 * The search index (a file of its own beside the database, its schema by
 * migrations/search-index) built a slice at a time, and a text search with
 * what it needs passed in: the index, and how a row stored once is searched.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const N = 150;

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

function build(index: SearchIndex): void {
  for (let i = 0; i < 1000 && index.step() !== null; i++);
}

const SEARCHES: RowFilter[] = [
  { search: 'EGGS' },
  { search: 'row 1' },
  { search: 'ducks' },
  { search: 'no such text' },
  { search: 'eg' },
];

describe('the search index', () => {
  it('answers each search as a scan of the rows does, from a connection opened by openDatabase', () => {
    const { db } = database();
    const scan: RowSearch = { leanText: leanText() };
    const index = new SearchIndex(db, () => leanText());
    expect(index.completeTable('ds_a')).toBeUndefined();
    build(index);
    expect(index.completed()).toEqual(['ds_a']);
    const indexed: RowSearch = { leanText: leanText(), index: index.completeTable('ds_a') };
    expect(indexed.index).toBe('search.fts_ds_a');
    for (const filter of SEARCHES) {
      const label = JSON.stringify(filter);
      const sort = { column: 'index', direction: 'asc' } as const;
      const all = pageIndices(db, 'ds_a', { filter, sort, offset: 0, limit: N, search: scan });
      expect(countRows(db, 'ds_a', filter, indexed), label).toBe(all.length);
      expect(countRows(db, 'ds_a', filter, scan), label).toBe(all.length);
      expect(
        pageIndices(db, 'ds_a', { filter, sort, offset: 2, limit: 5, search: indexed }),
        label,
      ).toEqual(all.slice(2, 7));
    }
    expect(countRows(db, 'ds_a', { search: 'eggs' }, scan)).toBe(N / 3);
    db.close();
  });

  it('rebuilds the indexes of a file written before every field was searched', () => {
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

    const index = new SearchIndex(db, () => leanText());
    expect(index.completed()).toEqual([]);
    build(index);
    expect(index.completed()).toEqual(['ds_a']);
    const search: RowSearch = { leanText: leanText(), index: index.completeTable('ds_a') };
    expect(countRows(db, 'ds_a', { search: 'eggs' }, search)).toBe(N / 3);
    expect(countRows(db, 'ds_a', { search: 'ducks' }, search)).toBe(N - N / 3);
    db.close();

    const file = new Database(join(dir, SEARCH_FILE), { readonly: true });
    expect(file.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual([1, 2]);
    file.close();
  });

  it('drops the index of a dataset deleted', () => {
    const { db } = database();
    const index = new SearchIndex(db, () => leanText());
    build(index);
    db.prepare('DELETE FROM datasets').run();
    expect(index.step()).toBeNull();
    expect(index.completed()).toEqual([]);
    expect(index.completeTable('ds_a')).toBeUndefined();
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
