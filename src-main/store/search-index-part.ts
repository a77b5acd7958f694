import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { SEARCH_PART_MIGRATIONS } from './migrations/search-index-part/index.ts';
import { firstUndone, type IndexLayout } from './search-index-layout.ts';
import type { LeanSearchText } from './search-text.ts';
import { composed, plucked, statement } from './statements.ts';

/**
 * One part of the search index (see search-index.ts): the rows of the chunks
 * search-index-layout.ts gives it, in a file of its own
 * (`svc-search-part-<n>.sqlite`), so that each part is written by a thread of
 * its own without waiting for another's lock. Per dataset it holds a narrow
 * table of each row's search text (`text_<id>`) and an FTS5 trigram table
 * over the same texts (`fts_<id>`), and in `built` how far each is.
 */

export const partFileName = (part: number): string => `svc-search-part-${part}.sqlite`;

const suffixOf = (datasetId: string): string => datasetId.replace(/[^A-Za-z0-9_]/g, '_');
export const ftsOf = (datasetId: string): string => `fts_${suffixOf(datasetId)}`;
export const textOf = (datasetId: string): string => `text_${suffixOf(datasetId)}`;

/** How far a part has stored a dataset: the last row of its texts and of its trigrams (-1: none). */
export interface PartProgress {
  dataset_id: string;
  part: number;
  texts: number;
  through: number;
  /** Every row of the part's chunks is in both (the dataset is imported). */
  complete: boolean;
}

interface BuiltEntry {
  dataset_id: string;
  texts: number;
  through: number;
  complete: 0 | 1;
}

interface IndexedRow {
  row_index: number;
  original_json: string;
  source_path: string | null;
}

interface DatasetState {
  id: string;
  state: string;
}

/** FTS5's in-memory postings before a flush (its default: 1 MiB). */
export const FTS_HASH_BYTES = 64 * 1024 * 1024;
/** Segments of a level FTS5 merges at once (its default: 4). */
export const FTS_AUTOMERGE = 16;

/**
 * The form of the texts the parts store (the service's LeanSearchText): 1,
 * lowercased with typographic quotes folded (src-shared/search-fold.ts).
 * Raised whenever that form changes, so that parts built before are built
 * again (their texts would not match the searches any more).
 */
export const SEARCH_TEXT_FORM = 1;

/** A part's file beside the app database `appFile`, opened and migrated. */
function openPartFile(appFile: string, part: number): Db {
  const file = new Database(join(dirname(appFile), partFileName(part)));
  file.pragma('journal_mode = WAL');
  // A cache: rebuilt if lost, so no fsync per transaction.
  file.pragma('synchronous = OFF');
  migrate(file, SEARCH_PART_MIGRATIONS);
  return file;
}

/** Builds one part: its file's one writing connection, and a (read-only) one to the app's. */
export class SearchIndexPart {
  readonly #db: Db;
  readonly #file: Db;
  readonly #part: number;
  readonly #layout: IndexLayout;
  readonly #leanText: (datasetId: string) => LeanSearchText;

  constructor(
    db: Db,
    part: number,
    layout: IndexLayout,
    leanText: (datasetId: string) => LeanSearchText,
  ) {
    this.#db = db;
    this.#part = part;
    this.#layout = layout;
    this.#leanText = leanText;
    this.#file = openPartFile(db.name, part);
    this.#keepLayout();
  }

  /**
   * A file of another layout (its index's file made again since) holds other
   * chunks, and one of another text form other texts: emptied.
   */
  #keepLayout(): void {
    const kept = statement(this.#file, 'SELECT parts, chunk, text_form FROM part_layout').get() as
      (IndexLayout & { text_form: number }) | undefined;
    if (
      kept?.parts === this.#layout.parts &&
      kept.chunk === this.#layout.chunk &&
      kept.text_form === SEARCH_TEXT_FORM
    ) {
      return;
    }
    const ids = statement(this.#file, 'SELECT dataset_id FROM built').all() as {
      dataset_id: string;
    }[];
    for (const { dataset_id } of ids) this.#drop(dataset_id);
    statement(
      this.#file,
      'INSERT OR REPLACE INTO part_layout (id, parts, chunk, text_form) VALUES (1, ?, ?, ?)',
    ).run(this.#layout.parts, this.#layout.chunk, SEARCH_TEXT_FORM);
  }

  /** Whether a dataset is still importing (the part may have more to do soon). */
  importing(): boolean {
    return (
      plucked(this.#db, `SELECT 1 FROM datasets WHERE state = 'importing' LIMIT 1`).get() !==
      undefined
    );
  }

  /** How far the part has stored each dataset it holds (told once at start). */
  states(): PartProgress[] {
    const entries = statement(
      this.#file,
      'SELECT dataset_id, texts, through, complete FROM built',
    ).all() as BuiltEntry[];
    return entries.map((entry) => this.#progress(entry));
  }

  close(): void {
    this.#file.close();
  }

  /**
   * One transaction of work on the first dataset with some (and the tables
   * of datasets deleted dropped): how far the part is with that dataset, or
   * null when there is nothing to do now (a dataset still importing may have
   * more later).
   */
  step(): PartProgress | null {
    // The states before the rows: a dataset read as imported has every row committed.
    const datasets = statement(this.#db, 'SELECT id, state FROM datasets').all() as DatasetState[];
    const byId = new Map(datasets.map((d) => [d.id, d]));
    const known = statement(
      this.#file,
      'SELECT dataset_id, texts, through, complete FROM built',
    ).all() as BuiltEntry[];
    for (const entry of known) if (!byId.has(entry.dataset_id)) this.#drop(entry.dataset_id);
    const entries = new Map(known.map((entry) => [entry.dataset_id, entry]));
    for (const dataset of datasets) {
      if (dataset.state !== 'ready' && dataset.state !== 'importing') continue;
      const entry = entries.get(dataset.id);
      if (entry?.complete === 1) continue;
      const progress = this.#advance(dataset, entry);
      if (progress) return progress;
    }
    return null;
  }

  #progress(entry: BuiltEntry): PartProgress {
    return {
      dataset_id: entry.dataset_id,
      part: this.#part,
      texts: entry.texts,
      through: entry.through,
      complete: entry.complete === 1,
    };
  }

  #drop(datasetId: string): void {
    this.#file.transaction(() => {
      this.#file.exec(`DROP TABLE IF EXISTS ${ftsOf(datasetId)}`);
      this.#file.exec(`DROP TABLE IF EXISTS ${textOf(datasetId)}`);
      statement(this.#file, 'DELETE FROM built WHERE dataset_id = ?').run(datasetId);
    })();
  }

  /** One transaction on the dataset, or undefined when the part has nothing to do with it now. */
  #advance(dataset: DatasetState, known: BuiltEntry | undefined): PartProgress | undefined {
    const id = dataset.id;
    const fts = ftsOf(id);
    const text = textOf(id);
    if (known === undefined) {
      // Tables first, told at once: readers use a part's tables once every part has told.
      this.#file.transaction(() => {
        this.#file.exec(`DROP TABLE IF EXISTS ${fts}`);
        this.#file.exec(`DROP TABLE IF EXISTS ${text}`);
        // Lowercased texts and searches alike: no case folding. No positions (detail = none):
        // a match's trigrams are all there, and the narrow text confirms the substring.
        this.#file.exec(
          `CREATE VIRTUAL TABLE ${fts} USING fts5(text, tokenize = 'trigram case_sensitive 1',
             content = '', detail = none, columnsize = 0)`,
        );
        // A chunk's postings are flushed once, at its commit (not each MiB), and segments are
        // merged 16 at a time (not 4): measured on 100,000 texts, 4.8-5.2 s of CPU where FTS5's
        // defaults took 5.8-7.5 s, with searches as fast. Both are kept in the table's config.
        this.#file.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('hashsize', ${FTS_HASH_BYTES})`);
        this.#file.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('automerge', ${FTS_AUTOMERGE})`);
        this.#file.exec(`CREATE TABLE ${text} (row_index INTEGER PRIMARY KEY, text TEXT NOT NULL)`);
        statement(
          this.#file,
          'INSERT INTO built (dataset_id, texts, through, complete) VALUES (?, -1, -1, 0)',
        ).run(id);
      })();
      return this.#progress({ dataset_id: id, texts: -1, through: -1, complete: 0 });
    }
    const entry = known;
    // The texts first: a search reads them while the trigrams catch up. Rows come in order,
    // so the part's next rows are in the chunk its first row not stored is in, or none are.
    const from = firstUndone(this.#layout, this.#part, entry.texts);
    const chunkEnd = (Math.floor(from / this.#layout.chunk) + 1) * this.#layout.chunk;
    const rows = statement(
      this.#db,
      `SELECT row_index, original_json, source_path FROM dataset_rows
       WHERE dataset_id = ? AND row_index >= ? AND row_index < ? ORDER BY row_index`,
    ).all(id, from, chunkEnd) as IndexedRow[];
    if (rows.length > 0) {
      const lean = this.#leanText(id);
      lean.prepare();
      const insert = composed(this.#file, `INSERT INTO ${text} (row_index, text) VALUES (?, ?)`);
      const last = (rows.at(-1) as IndexedRow).row_index;
      this.#file.transaction(() => {
        for (const row of rows) {
          insert.run(row.row_index, lean.text(row.original_json, row.source_path));
        }
        statement(this.#file, 'UPDATE built SET texts = ? WHERE dataset_id = ?').run(last, id);
      })();
      return this.#progress({ ...entry, texts: last });
    }
    if (entry.through < entry.texts) {
      const texts = composed(
        this.#file,
        `SELECT row_index, text FROM ${text} WHERE row_index > ? ORDER BY row_index LIMIT ?`,
      )
        .raw()
        .all(entry.through, this.#layout.chunk) as [number, string][];
      const insert = composed(this.#file, `INSERT INTO ${fts} (rowid, text) VALUES (?, ?)`);
      const last = (texts.at(-1) as [number, string])[0];
      this.#file.transaction(() => {
        for (const [rowIndex, rowText] of texts) insert.run(rowIndex, rowText);
        statement(this.#file, 'UPDATE built SET through = ? WHERE dataset_id = ?').run(last, id);
      })();
      return this.#progress({ ...entry, through: last });
    }
    // Every row of its chunks is in: complete once the import is (its state was read before its rows).
    if (dataset.state !== 'ready') return undefined;
    statement(this.#file, 'UPDATE built SET complete = 1 WHERE dataset_id = ?').run(id);
    return this.#progress({ ...entry, complete: 1 });
  }
}
