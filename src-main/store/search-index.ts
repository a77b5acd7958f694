import Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { SEARCH_INDEX_MIGRATIONS } from './migrations/search-index/index.ts';
import { builtThrough, MAX_INDEX_PARTS, type IndexLayout } from './search-index-layout.ts';
import {
  ftsOf,
  partFileName,
  SearchIndexPart,
  textOf,
  type PartProgress,
} from './search-index-part.ts';
import type { IndexedSearch, LeanSearchText } from './search-text.ts';
import { plucked, statement } from './statements.ts';

/**
 * The text search's index: per dataset, a narrow table of each row's search
 * text (`text_<id>`, rowid: the row's index) and an FTS5 table with the
 * trigram tokenizer over the same texts (`fts_<id>`), so a search is a set of
 * trigrams confirmed against the narrow texts, answered in milliseconds where
 * a scan of a million wide rows takes seconds. It is a cache beside the
 * database, rebuilt when missing, and never takes the app database's write
 * lock, while the grid's worker reads it (WAL).
 *
 * The rows are shared among parts (search-index-layout.ts: chunks of 5,000
 * rows, round robin; a part per core but one), each a file of its own (`svc-search-part-<n>.sqlite`,
 * search-index-part.ts) written by a thread of its own: FTS5's trigram
 * tokenizing costs ~130 ns a character, ~70 µs a row of 500 characters, and
 * one thread building a million rows' index was what kept a dataset from
 * being ready on a machine with cores to spare. This file
 * (`svc-search.sqlite`, its schema by migrations/search-index) holds the
 * layout and, per dataset, the prefix of rows every part has stored, which
 * is what a reader uses (`indexedSearch`).
 *
 * A dataset is indexed as soon as its rows are committed, while it still
 * imports: in each part first its texts, then its trigrams, each in large
 * transactions (a reader never waits for a writer in WAL, so nothing is
 * gained by small ones: slices of 32 rows made a million-row build 246 s).
 * Until the trigram tables are complete a search reads them for the rows they
 * hold, the narrow texts for the rows after, and the wide rows only for rows
 * not yet in the texts (see datasets-filter.ts).
 */

export const SEARCH_FILE = 'svc-search.sqlite';
/** Rows per chunk of the layout: a part's transaction stores at most one chunk. */
const CHUNK = 5000;

/** The schema the index's file is attached as on a reading connection; its parts' `search_p<n>`. */
const SCHEMA = 'search';
const partSchema = (part: number): string => `${SCHEMA}_p${part}`;

/**
 * The layout a new index takes: a part per core but one (the server's thread
 * and the import keep a core: on 2 cores, 2 parts finished the index of
 * 200,000 rows sooner, 17.9 s instead of 23.8 s, with the dataset ready no
 * sooner, and searches made while the import ran took up to 1.2 s instead
 * of 0.5 s), at most MAX_INDEX_PARTS. SVC_SEARCH_INDEX_PARTS (1 to
 * MAX_INDEX_PARTS) sets it, to measure.
 */
export function defaultLayout(env: NodeJS.ProcessEnv = process.env): IndexLayout {
  const asked = Number(env.SVC_SEARCH_INDEX_PARTS);
  const parts =
    Number.isInteger(asked) && asked >= 1 && asked <= MAX_INDEX_PARTS
      ? asked
      : Math.max(1, Math.min(MAX_INDEX_PARTS, availableParallelism() - 1));
  return { parts, chunk: CHUNK };
}

/** A dataset in the index's `indexed` table (migrations/search-index). */
interface IndexedEntry {
  dataset_id: string;
  /** The last row index in every part's trigram table (-1: none yet). */
  through: number;
  /** The last row index whose text every part has stored (-1: none yet). */
  texts: number;
  complete: 0 | 1;
}

interface DatasetState {
  state: string;
  row_count: number;
}

/** How far a dataset's index is built: `indexed` of `total` rows in its trigram tables. */
export interface IndexProgress {
  dataset_id: string;
  indexed: number;
  total: number;
  complete: boolean;
}

/** Opens (and migrates) the index's file beside the app database `appFile`. */
function openIndexFile(appFile: string): Db {
  const index = new Database(join(dirname(appFile), SEARCH_FILE));
  index.pragma('journal_mode = WAL');
  // A cache: rebuilt if lost, so no fsync per transaction.
  index.pragma('synchronous = OFF');
  migrate(index, SEARCH_INDEX_MIGRATIONS);
  // The tables of the layout before parts (migration 4), in this file: dropped once.
  const old = plucked(
    index,
    `SELECT name FROM sqlite_master WHERE type = 'table'
       AND (name LIKE 'text\\_%' ESCAPE '\\' OR (name LIKE 'fts\\_%' ESCAPE '\\'
         AND sql LIKE 'CREATE VIRTUAL TABLE%'))`,
  ).all() as string[];
  for (const name of old) index.exec(`DROP TABLE IF EXISTS "${name}"`);
  return index;
}

/**
 * The index's own file, kept by one thread (search-index-worker.ts): its
 * layout, and per dataset the prefix of rows every part has stored, from
 * what the parts tell (`record`).
 */
export class SearchIndexMeta {
  readonly #db: Db;
  readonly #index: Db;
  readonly layout: IndexLayout;
  /** Per dataset, what each part last told (undefined: not yet). */
  readonly #told = new Map<string, (PartProgress | undefined)[]>();

  /** `db`: a connection to the app database (only read). `wanted`: the layout of a new file. */
  constructor(db: Db, wanted: IndexLayout = defaultLayout()) {
    this.#db = db;
    this.#index = openIndexFile(db.name);
    statement(this.#index, 'INSERT OR IGNORE INTO layout (id, parts, chunk) VALUES (1, ?, ?)').run(
      wanted.parts,
      wanted.chunk,
    );
    this.layout = statement(this.#index, 'SELECT parts, chunk FROM layout').get() as IndexLayout;
  }

  /** The datasets whose index is complete. */
  completed(): string[] {
    return plucked(
      this.#index,
      'SELECT dataset_id FROM indexed WHERE complete = 1',
    ).all() as string[];
  }

  /** Forgets the datasets deleted. */
  prune(): void {
    const ids = new Set(plucked(this.#db, 'SELECT id FROM datasets').all() as string[]);
    for (const id of plucked(this.#index, 'SELECT dataset_id FROM indexed').all() as string[]) {
      if (ids.has(id)) continue;
      statement(this.#index, 'DELETE FROM indexed WHERE dataset_id = ?').run(id);
      this.#told.delete(id);
    }
  }

  /**
   * What a part told: the dataset's prefix stored by every part written
   * down, and how far it is, once every part has told of the dataset (a
   * reader then finds each part's tables).
   */
  record(progress: PartProgress): IndexProgress | undefined {
    const id = progress.dataset_id;
    const told = this.#told.get(id) ?? Array<PartProgress | undefined>(this.layout.parts);
    this.#told.set(id, told);
    told[progress.part] = progress;
    const parts = told.filter((part) => part !== undefined);
    if (parts.length < this.layout.parts) return undefined;
    const dataset = statement(this.#db, 'SELECT state, row_count FROM datasets WHERE id = ?').get(
      id,
    ) as DatasetState | undefined;
    if (dataset === undefined) return undefined;
    const last = (of: 'texts' | 'through'): number =>
      builtThrough(
        this.layout,
        parts.map((part) => (part.complete ? 'complete' : part[of])),
        dataset.row_count,
      );
    const complete = parts.every((part) => part.complete);
    const through = last('through');
    statement(
      this.#index,
      `INSERT OR REPLACE INTO indexed (dataset_id, through, texts, complete) VALUES (?, ?, ?, ?)`,
    ).run(id, through, last('texts'), complete ? 1 : 0);
    const total = Math.max(dataset.row_count, 0);
    return {
      dataset_id: id,
      indexed: dataset.state === 'ready' ? Math.min(through + 1, total) : through + 1,
      total: Math.max(total, through + 1),
      complete,
    };
  }

  close(): void {
    this.#index.close();
  }
}

/**
 * The whole index built on the calling thread, its parts one after another
 * (tests; the app builds each part on a thread of its own:
 * search-index-worker.ts).
 */
export class SearchIndexBuilder {
  readonly #meta: SearchIndexMeta;
  readonly #parts: SearchIndexPart[];
  #next = 0;

  constructor(
    db: Db,
    leanText: (datasetId: string) => LeanSearchText,
    layout: IndexLayout = defaultLayout(),
  ) {
    this.#meta = new SearchIndexMeta(db, layout);
    this.#parts = Array.from(
      { length: this.#meta.layout.parts },
      (_, part) => new SearchIndexPart(db, part, this.#meta.layout, leanText),
    );
    for (const part of this.#parts) for (const state of part.states()) this.#meta.record(state);
  }

  completed(): string[] {
    return this.#meta.completed();
  }

  /**
   * One transaction of some part's work, until one changes how far a
   * dataset's index is: that, or null when no part has anything to do now.
   */
  step(): IndexProgress | null {
    this.#meta.prune();
    for (;;) {
      let worked = false;
      for (let i = 0; i < this.#parts.length; i++) {
        const part = this.#parts[this.#next] as SearchIndexPart;
        this.#next = (this.#next + 1) % this.#parts.length;
        const progress = part.step();
        if (!progress) continue;
        worked = true;
        const told = this.#meta.record(progress);
        if (told) return told;
      }
      if (!worked) return null;
    }
  }

  close(): void {
    for (const part of this.#parts) part.close();
    this.#meta.close();
  }
}

/**
 * The search index as a reading connection sees it: the index's file and its
 * parts attached (once they exist), and how far a dataset's index is built.
 */
export function indexedSearch(db: Db, datasetId: string): IndexedSearch | undefined {
  const layout = attached(db);
  if (layout === undefined) return undefined;
  const entry = statement(
    db,
    `SELECT dataset_id, through, texts, complete FROM ${SCHEMA}.indexed WHERE dataset_id = ?`,
  ).get(datasetId) as IndexedEntry | undefined;
  // An entry with texts is written once every part holds the dataset's tables.
  if (entry === undefined || entry.texts === -1) return undefined;
  if (!partsAttached(db, layout.parts)) return undefined;
  return {
    parts: Array.from({ length: layout.parts }, (_, part) => ({
      fts: `${partSchema(part)}.${ftsOf(datasetId)}`,
      text: `${partSchema(part)}.${textOf(datasetId)}`,
    })),
    trigramsThrough: entry.through,
    textsThrough: entry.texts,
    complete: entry.complete === 1,
  };
}

/** Per connection: the layout of the index attached, and how many of its parts are. */
const attachedTo = new WeakMap<Db, { layout: IndexLayout; parts: number }>();

/** Whether `file` exists as a database this connection can read (never made by looking). */
function readable(file: string, check?: (probe: Db) => boolean): boolean {
  try {
    const probe = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return check ? check(probe) : true;
    } finally {
      probe.close();
    }
  } catch {
    return false;
  }
}

const attach = (db: Db, file: string, schema: string): void => {
  db.exec(`ATTACH DATABASE '${file.replaceAll("'", "''")}' AS ${schema}`);
};

/** Attaches the index's file to the connection once it exists with its layout: that layout. */
function attached(db: Db): IndexLayout | undefined {
  const known = attachedTo.get(db);
  if (known) return known.layout;
  const file = join(dirname(db.name), SEARCH_FILE);
  let layout: IndexLayout | undefined;
  const laidOut = readable(file, (probe) => {
    const tables = plucked(probe, `SELECT name FROM sqlite_master WHERE type = 'table'`).all();
    if (!tables.includes('layout')) return false;
    layout = probe.prepare('SELECT parts, chunk FROM layout').get() as IndexLayout | undefined;
    return layout !== undefined;
  });
  if (!laidOut || layout === undefined) return undefined;
  try {
    // Read-only: the index's own threads alone write its files.
    attach(db, file, SCHEMA);
  } catch {
    return undefined;
  }
  attachedTo.set(db, { layout, parts: 0 });
  return layout;
}

/** Attaches the index's parts not attached yet; whether all `parts` are. */
function partsAttached(db: Db, parts: number): boolean {
  const state = attachedTo.get(db);
  if (!state) return false;
  for (; state.parts < parts; state.parts++) {
    const file = join(dirname(db.name), partFileName(state.parts));
    if (!readable(file)) return false;
    try {
      attach(db, file, partSchema(state.parts));
    } catch {
      return false;
    }
  }
  return true;
}
