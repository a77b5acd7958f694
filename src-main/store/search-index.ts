import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { SEARCH_INDEX_MIGRATIONS } from './migrations/search-index/index.ts';
import type { LeanSearchText } from './search-text.ts';
import { composed, plucked, statement } from './statements.ts';

/**
 * The text search's index: per dataset, an FTS5 table with the trigram
 * tokenizer over each row's search text (rowid: the row's index), so a
 * search is a phrase of trigrams, answered in milliseconds where a scan of a
 * million rows takes seconds (measured: see the README). It lives in a file
 * of its own beside the database (`svc-search.sqlite`, its schema by
 * migrations/search-index): a cache, rebuilt when missing, written by the
 * grid worker without ever taking the app database's write lock. A
 * dataset's index is used once complete; until then (and for searches under
 * three characters) the rows are scanned.
 */

export const SEARCH_FILE = 'svc-search.sqlite';
/**
 * Rows read at a time, and how long a slice (one transaction) goes on reading
 * them. The worker answers queries between slices, so a grid query waits for
 * at most the slice under way: measured on 30,000 rows (a loaded 2-core
 * machine), slices of 32 rows took 5 ms (p50) and 40 ms (p99) where 250 took
 * 65 ms and 140–290 ms. A slice of 32 rows alone made a million-row build
 * 246 s instead of 139 s (each slice's own queries and commit): a slice reads
 * 32 rows at a time until SLICE_MS have passed.
 */
const CHUNK_ROWS = 32;
const SLICE_MS = 8;

/** The schema the index's file is attached as on the app database's connection. */
const SCHEMA = 'search';

const tableOf = (datasetId: string): string => `fts_${datasetId.replace(/[^A-Za-z0-9_]/g, '_')}`;

/** A dataset in the index's `indexed` table (migrations/search-index). */
interface IndexedEntry {
  dataset_id: string;
  /** The last row index indexed (-1: none yet). */
  through: number;
  complete: 0 | 1;
}

/** A row as the index reads it. */
interface IndexedRow {
  row_index: number;
  original_json: string;
  source_path: string | null;
}

export class SearchIndex {
  readonly #db: Db;
  readonly #index: Db;
  readonly #leanText: (datasetId: string) => LeanSearchText;
  readonly #complete = new Set<string>();

  /**
   * `db`: the worker's read-only connection to the app database, which the
   * index's file is attached to. `leanText`: how the rows of a dataset are
   * searched, from each row's original (the service's: every field).
   */
  constructor(db: Db, leanText: (datasetId: string) => LeanSearchText) {
    this.#db = db;
    this.#leanText = leanText;
    const file = join(dirname(db.name), SEARCH_FILE);
    this.#index = new Database(file);
    this.#index.pragma('journal_mode = WAL');
    // A cache: rebuilt if lost, so no fsync per slice.
    this.#index.pragma('synchronous = OFF');
    migrate(this.#index, SEARCH_INDEX_MIGRATIONS);
    db.exec(`ATTACH DATABASE '${file.replaceAll("'", "''")}' AS ${SCHEMA}`);
    const complete = plucked(this.#index, 'SELECT dataset_id FROM indexed WHERE complete = 1');
    for (const id of complete.all() as string[]) this.#complete.add(id);
  }

  /** The datasets whose index is complete. */
  completed(): string[] {
    return [...this.#complete];
  }

  /** Whether the dataset's index is complete. */
  complete(datasetId: string): boolean {
    return this.#complete.has(datasetId);
  }

  /**
   * The dataset's index as the app database's connection reads it
   * (`schema.table`, see RowSearch), when complete.
   */
  completeTable(datasetId: string): string | undefined {
    return this.#complete.has(datasetId) ? `${SCHEMA}.${tableOf(datasetId)}` : undefined;
  }

  /**
   * Indexes one slice of the first dataset not yet complete (and drops the
   * indexes of datasets deleted); returns the dataset whose index it
   * completed, null when there was nothing to do, or undefined to go on.
   */
  step(): string | null | undefined {
    const ready = new Set(
      plucked(this.#db, `SELECT id FROM datasets WHERE state = 'ready'`).all() as string[],
    );
    const indexed = statement(this.#index, 'SELECT dataset_id, through, complete FROM indexed');
    const known = indexed.all() as IndexedEntry[];
    for (const entry of known) {
      if (ready.has(entry.dataset_id)) continue;
      const present = plucked(this.#db, 'SELECT 1 FROM datasets WHERE id = ?').get(
        entry.dataset_id,
      );
      if (present !== undefined) continue; // still importing (or deleting): later
      this.#complete.delete(entry.dataset_id);
      this.#index.transaction(() => {
        this.#index.exec(`DROP TABLE IF EXISTS ${tableOf(entry.dataset_id)}`);
        statement(this.#index, 'DELETE FROM indexed WHERE dataset_id = ?').run(entry.dataset_id);
      })();
    }
    const byId = new Map(known.map((entry) => [entry.dataset_id, entry]));
    const next = [...ready].find((id) => byId.get(id)?.complete !== 1);
    if (next === undefined) return null;
    const table = tableOf(next);
    const through = byId.get(next)?.through ?? -1;
    // A dataset not begun (or to be rebuilt from the start: migration 2) gets a new table.
    if (through === -1) {
      this.#index.transaction(() => {
        this.#index.exec(`DROP TABLE IF EXISTS ${table}`);
        this.#index.exec(
          `CREATE VIRTUAL TABLE ${table} USING fts5(text, tokenize = 'trigram', content = '')`,
        );
        statement(
          this.#index,
          'INSERT OR REPLACE INTO indexed (dataset_id, through, complete) VALUES (?, -1, 0)',
        ).run(next);
      })();
    }
    const select = statement(
      this.#db,
      `SELECT row_index, original_json, source_path
       FROM dataset_rows WHERE dataset_id = ? AND row_index > ? ORDER BY row_index LIMIT ?`,
    );
    const lean = this.#leanText(next);
    const insert = composed(this.#index, `INSERT INTO ${table} (rowid, text) VALUES (?, ?)`);
    const deadline = performance.now() + SLICE_MS;
    const done = this.#index.transaction((): boolean => {
      let last = through;
      let finished: boolean;
      do {
        const rows = select.all(next, last, CHUNK_ROWS) as IndexedRow[];
        for (const row of rows)
          insert.run(row.row_index, lean.text(row.original_json, row.source_path));
        last = rows.at(-1)?.row_index ?? last;
        finished = rows.length < CHUNK_ROWS;
      } while (!finished && performance.now() < deadline);
      statement(
        this.#index,
        'UPDATE indexed SET through = ?, complete = ? WHERE dataset_id = ?',
      ).run(last, finished ? 1 : 0, next);
      return finished;
    })();
    if (!done) return undefined;
    this.#complete.add(next);
    return next;
  }
}
