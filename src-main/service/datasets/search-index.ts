import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import { setSearchIndexOf } from '../../store/datasets-filter.ts';
import type { Db } from '../../store/db.ts';
import { gridText } from './grid-text.ts';
import { sampleReader } from './row-sample.ts';

/**
 * The text search's index: per dataset, an FTS5 table with the trigram
 * tokenizer over each row's search text (rowid: the row's index), so a
 * search is a phrase of trigrams, answered in milliseconds where a scan of a
 * million rows takes seconds (measured: see the README). It lives in a file
 * of its own beside the database (`svc-search.sqlite`): a cache, rebuilt
 * when missing, written by the grid worker without ever taking the app
 * database's write lock. A dataset's index is used once complete; until
 * then (and for searches under three characters) the rows are scanned.
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

const tableOf = (datasetId: string): string => `fts_${datasetId.replace(/[^A-Za-z0-9_]/g, '_')}`;

export class SearchIndex {
  readonly #db: Db;
  readonly #index: Database.Database;
  readonly #complete = new Set<string>();

  /** `db`: the worker's read-only connection to the app database. */
  constructor(db: Db) {
    this.#db = db;
    const file = join(dirname(db.name), SEARCH_FILE);
    this.#index = new Database(file);
    this.#index.pragma('journal_mode = WAL');
    // A cache: rebuilt if lost, so no fsync per slice.
    this.#index.pragma('synchronous = OFF');
    this.#index.exec(`CREATE TABLE IF NOT EXISTS indexed (
      dataset_id TEXT PRIMARY KEY, through INTEGER NOT NULL, complete INTEGER NOT NULL)`);
    db.exec(`ATTACH DATABASE '${file.replaceAll("'", "''")}' AS search`);
    for (const id of this.#index
      .prepare('SELECT dataset_id FROM indexed WHERE complete = 1')
      .pluck()
      .all() as string[]) {
      this.#complete.add(id);
    }
    setSearchIndexOf((connection, datasetId) =>
      connection === db && this.#complete.has(datasetId)
        ? `search.${tableOf(datasetId)}`
        : undefined,
    );
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
   * Indexes one slice of the first dataset not yet complete (and drops the
   * indexes of datasets deleted); returns the dataset whose index it
   * completed, null when there was nothing to do, or undefined to go on.
   */
  step(): string | null | undefined {
    const ready = new Set(
      this.#db.prepare(`SELECT id FROM datasets WHERE state = 'ready'`).pluck().all() as string[],
    );
    const known = this.#index
      .prepare('SELECT dataset_id, through, complete FROM indexed')
      .all() as {
      dataset_id: string;
      through: number;
      complete: 0 | 1;
    }[];
    for (const entry of known) {
      if (ready.has(entry.dataset_id)) continue;
      const present = this.#db
        .prepare('SELECT 1 FROM datasets WHERE id = ?')
        .pluck()
        .get(entry.dataset_id);
      if (present !== undefined) continue; // still importing (or deleting): later
      this.#complete.delete(entry.dataset_id);
      this.#index.transaction(() => {
        this.#index.exec(`DROP TABLE IF EXISTS ${tableOf(entry.dataset_id)}`);
        this.#index.prepare('DELETE FROM indexed WHERE dataset_id = ?').run(entry.dataset_id);
      })();
    }
    const byId = new Map(known.map((entry) => [entry.dataset_id, entry]));
    const next = [...ready].find((id) => byId.get(id)?.complete !== 1);
    if (next === undefined) return null;
    const table = tableOf(next);
    const through = byId.get(next)?.through ?? -1;
    if (!byId.has(next)) {
      this.#index.transaction(() => {
        this.#index.exec(`DROP TABLE IF EXISTS ${table}`);
        this.#index.exec(
          `CREATE VIRTUAL TABLE ${table} USING fts5(text, tokenize = 'trigram', content = '')`,
        );
        this.#index
          .prepare('INSERT INTO indexed (dataset_id, through, complete) VALUES (?, -1, 0)')
          .run(next);
      })();
    }
    const select = this.#db.prepare(
      `SELECT row_index, search_text, sample_json,
         CASE WHEN sample_json = '' THEN original_json END AS lean_original, source_path
       FROM dataset_rows WHERE dataset_id = ? AND row_index > ? ORDER BY row_index LIMIT ?`,
    );
    const sampleOf = sampleReader(this.#db, next);
    const insert = this.#index.prepare(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`);
    const deadline = performance.now() + SLICE_MS;
    const done = this.#index.transaction((): boolean => {
      let last = through;
      let finished: boolean;
      do {
        const rows = select.all(next, last, CHUNK_ROWS) as {
          row_index: number;
          search_text: string;
          sample_json: string;
          lean_original: string | null;
          source_path: string | null;
        }[];
        for (const row of rows) {
          const text =
            row.sample_json === '' ? gridText(sampleOf(row)).search_text : row.search_text;
          insert.run(row.row_index, text);
        }
        last = rows.at(-1)?.row_index ?? last;
        finished = rows.length < CHUNK_ROWS;
      } while (!finished && performance.now() < deadline);
      this.#index
        .prepare('UPDATE indexed SET through = ?, complete = ? WHERE dataset_id = ?')
        .run(last, finished ? 1 : 0, next);
      return finished;
    })();
    if (!done) return undefined;
    this.#complete.add(next);
    return next;
  }
}
