import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { SEARCH_INDEX_MIGRATIONS } from './migrations/search-index/index.ts';
import type { IndexedSearch, LeanSearchText } from './search-text.ts';
import { composed, plucked, statement } from './statements.ts';

/**
 * The text search's index: per dataset, a narrow table of each row's search
 * text (`text_<id>`, rowid: the row's index) and an FTS5 table with the
 * trigram tokenizer over the same texts (`fts_<id>`), so a search is a set of
 * trigrams confirmed against the narrow texts, answered in milliseconds where
 * a scan of a million wide rows takes seconds. It lives in a file of its own
 * beside the database (`svc-search.sqlite`, its schema by
 * migrations/search-index): a cache, rebuilt when missing, written by a
 * worker of its own (search-index-worker.ts) that never takes the app
 * database's write lock, while the grid's worker reads it (WAL).
 *
 * A dataset is indexed as soon as its rows are committed, while it still
 * imports: first its texts, then its trigrams, each in large transactions
 * (a reader never waits for a writer in WAL, so nothing is gained by small
 * ones: slices of 32 rows made a million-row build 246 s). Until the trigram
 * table is complete a search reads it for the rows it holds, the narrow texts
 * for the rows after, and the wide rows only for rows not yet in the texts
 * (see datasets-filter.ts).
 */

export const SEARCH_FILE = 'svc-search.sqlite';
/** Rows whose texts are stored per transaction. */
const TEXT_CHUNK = 5000;
/** Rows added to the trigram table per transaction. */
const TRIGRAM_CHUNK = 5000;

/** The schema the index's file is attached as on a reading connection. */
const SCHEMA = 'search';

const suffixOf = (datasetId: string): string => datasetId.replace(/[^A-Za-z0-9_]/g, '_');
const ftsOf = (datasetId: string): string => `fts_${suffixOf(datasetId)}`;
const textOf = (datasetId: string): string => `text_${suffixOf(datasetId)}`;

/** A dataset in the index's `indexed` table (migrations/search-index). */
interface IndexedEntry {
  dataset_id: string;
  /** The last row index in the trigram table (-1: none yet). */
  through: number;
  /** The last row index whose text is stored (-1: none yet). */
  texts: number;
  complete: 0 | 1;
}

/** A row as the index reads it. */
interface IndexedRow {
  row_index: number;
  original_json: string;
  source_path: string | null;
}

interface DatasetState {
  id: string;
  state: string;
  row_count: number;
}

/** How far a dataset's index is built: `indexed` of `total` rows in its trigram table. */
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
  return index;
}

/** Builds the indexes: one connection to the index's file, one (read-only) to the app's. */
export class SearchIndexBuilder {
  readonly #db: Db;
  readonly #index: Db;
  readonly #leanText: (datasetId: string) => LeanSearchText;

  /**
   * `db`: a connection to the app database (the builder only reads it).
   * `leanText`: how the rows of a dataset are searched, from each row's
   * original (the service's: every field).
   */
  constructor(db: Db, leanText: (datasetId: string) => LeanSearchText) {
    this.#db = db;
    this.#leanText = leanText;
    this.#index = openIndexFile(db.name);
  }

  /** Whether a dataset is still importing (its index may have more to do soon). */
  importing(): boolean {
    return (
      plucked(this.#db, `SELECT 1 FROM datasets WHERE state = 'importing' LIMIT 1`).get() !==
      undefined
    );
  }

  /** The datasets whose index is complete. */
  completed(): string[] {
    return plucked(
      this.#index,
      'SELECT dataset_id FROM indexed WHERE complete = 1',
    ).all() as string[];
  }

  close(): void {
    this.#index.close();
  }

  /**
   * One transaction of work on the first dataset with some (and the indexes
   * of datasets deleted dropped): how far that dataset is, or null when
   * there is nothing to do now (a dataset still importing may have more later).
   */
  step(): IndexProgress | null {
    const datasets = statement(
      this.#db,
      'SELECT id, state, row_count FROM datasets',
    ).all() as DatasetState[];
    const byId = new Map(datasets.map((d) => [d.id, d]));
    const known = statement(
      this.#index,
      'SELECT dataset_id, through, texts, complete FROM indexed',
    ).all() as IndexedEntry[];
    for (const entry of known) {
      if (!byId.has(entry.dataset_id)) this.#drop(entry.dataset_id);
    }
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

  #drop(datasetId: string): void {
    this.#index.transaction(() => {
      this.#index.exec(`DROP TABLE IF EXISTS ${ftsOf(datasetId)}`);
      this.#index.exec(`DROP TABLE IF EXISTS ${textOf(datasetId)}`);
      statement(this.#index, 'DELETE FROM indexed WHERE dataset_id = ?').run(datasetId);
    })();
  }

  /** One transaction on the dataset's index, or undefined when it has nothing to do now. */
  #advance(dataset: DatasetState, known: IndexedEntry | undefined): IndexProgress | undefined {
    const id = dataset.id;
    const fts = ftsOf(id);
    const text = textOf(id);
    let entry = known;
    // A dataset not begun (or to be rebuilt from the start: migrations 2 and 3) gets new tables.
    if (entry === undefined || (entry.through === -1 && entry.texts === -1)) {
      this.#index.transaction(() => {
        this.#index.exec(`DROP TABLE IF EXISTS ${fts}`);
        this.#index.exec(`DROP TABLE IF EXISTS ${text}`);
        // Lowercased texts and searches alike: no case folding. No positions (detail = none):
        // a match's trigrams are all there, and the narrow text confirms the substring.
        this.#index.exec(
          `CREATE VIRTUAL TABLE ${fts} USING fts5(text, tokenize = 'trigram case_sensitive 1',
             content = '', detail = none, columnsize = 0)`,
        );
        this.#index.exec(
          `CREATE TABLE ${text} (row_index INTEGER PRIMARY KEY, text TEXT NOT NULL)`,
        );
        statement(
          this.#index,
          `INSERT OR REPLACE INTO indexed (dataset_id, through, texts, complete)
           VALUES (?, -1, -1, 0)`,
        ).run(id);
      })();
      entry = { dataset_id: id, through: -1, texts: -1, complete: 0 };
    }
    const progress = (through: number, complete: boolean): IndexProgress => ({
      dataset_id: id,
      indexed: through + 1,
      total: Math.max(dataset.row_count, through + 1),
      complete,
    });
    // The texts first: a search reads them while the trigrams catch up.
    const rows = statement(
      this.#db,
      `SELECT row_index, original_json, source_path
       FROM dataset_rows WHERE dataset_id = ? AND row_index > ? ORDER BY row_index LIMIT ?`,
    ).all(id, entry.texts, TEXT_CHUNK) as IndexedRow[];
    if (rows.length > 0) {
      const lean = this.#leanText(id);
      lean.prepare();
      const insert = composed(this.#index, `INSERT INTO ${text} (row_index, text) VALUES (?, ?)`);
      const last = (rows.at(-1) as IndexedRow).row_index;
      this.#index.transaction(() => {
        for (const row of rows) {
          insert.run(row.row_index, lean.text(row.original_json, row.source_path));
        }
        statement(this.#index, 'UPDATE indexed SET texts = ? WHERE dataset_id = ?').run(last, id);
      })();
      return progress(entry.through, false);
    }
    if (entry.through < entry.texts) {
      const texts = composed(
        this.#index,
        `SELECT row_index, text FROM ${text} WHERE row_index > ? ORDER BY row_index LIMIT ?`,
      )
        .raw()
        .all(entry.through, TRIGRAM_CHUNK) as [number, string][];
      const insert = composed(this.#index, `INSERT INTO ${fts} (rowid, text) VALUES (?, ?)`);
      const last = (texts.at(-1) as [number, string])[0];
      this.#index.transaction(() => {
        for (const [rowIndex, rowText] of texts) insert.run(rowIndex, rowText);
        statement(this.#index, 'UPDATE indexed SET through = ? WHERE dataset_id = ?').run(last, id);
      })();
      return progress(last, false);
    }
    // Every row is in: complete once the import is (its state was read before its rows).
    if (dataset.state !== 'ready') return undefined;
    statement(this.#index, 'UPDATE indexed SET complete = 1 WHERE dataset_id = ?').run(id);
    return progress(entry.through, true);
  }
}

/**
 * The search index as a reading connection sees it: the index's file
 * attached (once it exists), and how far a dataset's index is built.
 */
export function indexedSearch(db: Db, datasetId: string): IndexedSearch | undefined {
  if (!attached(db)) return undefined;
  const entry = statement(
    db,
    `SELECT dataset_id, through, texts, complete FROM ${SCHEMA}.indexed WHERE dataset_id = ?`,
  ).get(datasetId) as IndexedEntry | undefined;
  if (entry === undefined || entry.texts === -1) return undefined;
  return {
    fts: `${SCHEMA}.${ftsOf(datasetId)}`,
    text: `${SCHEMA}.${textOf(datasetId)}`,
    trigramsThrough: entry.through,
    textsThrough: entry.texts,
    complete: entry.complete === 1,
  };
}

const attachedTo = new WeakSet<Db>();

/** Attaches the index's file to the connection once it exists with its schema. */
function attached(db: Db): boolean {
  if (attachedTo.has(db)) return true;
  const file = join(dirname(db.name), SEARCH_FILE);
  try {
    // Read-only: the builder's connection alone writes the file.
    const probe = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const columns = plucked(probe, 'SELECT name FROM pragma_table_info(?)').all('indexed');
      if (!columns.includes('texts')) return false;
    } finally {
      probe.close();
    }
    db.exec(`ATTACH DATABASE '${file.replaceAll("'", "''")}' AS ${SCHEMA}`);
  } catch {
    return false;
  }
  attachedTo.add(db);
  return true;
}
