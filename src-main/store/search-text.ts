import { leafText } from '../../src-shared/row-fields.ts';
import type { Db } from './db.ts';
import { parseJsonExact } from '../../src-shared/exact-json.ts';
import { searchFold } from '../../src-shared/search-fold.ts';

/**
 * The search text of a row: derived from its original as read, by the
 * service (every field of the row, lowercased), for every row (the
 * `search_text` column of rows stored before migration 8 held only the
 * grid's lines, and is no longer read). The store does not know how: whoever
 * runs a search passes the derivation in, per dataset.
 */
export interface LeanSearchText {
  /**
   * Readies what `text` needs (it may query the database): called before a
   * query that derives texts, since a function called by a query cannot query.
   */
  prepare(): void;
  text(original: string, sourcePath: string | null): string;
}

/**
 * A dataset's search index as a connection reads it (see search-index.ts),
 * complete or still being built: the tables, `schema.table`, and how far they are.
 */
export interface IndexedSearch {
  /**
   * The index's parts (each a share of the rows): the trigram table (FTS5,
   * rowid: the row's index) and the narrow texts (row_index, text) of each.
   */
  parts: { fts: string; text: string }[];
  /** Every row up to this one is in the trigram tables. */
  trigramsThrough: number;
  /** Every row up to this one is in the narrow texts. */
  textsThrough: number;
  /** Every row of the dataset is in both. */
  complete: boolean;
}

/**
 * What a text search over a dataset's rows needs besides its SQL, passed by
 * the caller: how a row stored once is searched, and the dataset's search
 * index when this connection has one (see search-index.ts).
 */
export interface RowSearch {
  leanText: LeanSearchText;
  /** The index, complete or not, when there is one: searches are answered from it. */
  index?: IndexedSearch | undefined;
}

/** The SQL function a scanning search calls for a row's text (see datasets-filter.ts). */
export const SEARCH_TEXT_FN = 'svc_search_text';
/**
 * The SQL function a search limited to one field calls: `(original_json,
 * field)`, the lowercased text of that field of the row (and of what it holds).
 */
export const FIELD_TEXT_FN = 'svc_field_text';

/** Per connection: the dataset being searched and how its rows' texts are derived. */
interface Searching {
  datasetId: string;
  leanText: LeanSearchText | undefined;
}
const searching = new WeakMap<Db, Searching>();
const NOT_SEARCHING: Searching = { datasetId: '', leanText: undefined };

/**
 * Registers SEARCH_TEXT_FN on the connection (once: redefining a function
 * would make SQLite re-prepare every cached statement). It derives a row's
 * text with what the query under way was given.
 */
function registerSearchFunction(db: Db): void {
  db.function(
    SEARCH_TEXT_FN,
    { deterministic: true },
    (datasetId: unknown, original: unknown, sourcePath: unknown) => {
      const now = searching.get(db);
      if (now?.leanText === undefined || now.datasetId !== datasetId) {
        throw new Error('a text search needs its rows’ search text (a RowSearch)');
      }
      return now.leanText.text(original as string, sourcePath as string | null);
    },
  );
  db.function(FIELD_TEXT_FN, { deterministic: true }, (original: unknown, field: unknown) =>
    searchFold(leafText(parseJsonExact(original as string), field as string)),
  );
}

/**
 * Runs `read`, a query (or several) that scans the dataset's rows for a text,
 * with `leanText` deriving the text of its rows stored once. Nested calls
 * (a count inside a page's reading) restore what was there before.
 */
export function withSearchText<T>(
  db: Db,
  datasetId: string,
  leanText: LeanSearchText | undefined,
  read: () => T,
): T {
  let before = searching.get(db);
  if (before === undefined) {
    registerSearchFunction(db);
    before = NOT_SEARCHING;
  }
  leanText?.prepare();
  searching.set(db, { datasetId, leanText });
  try {
    return read();
  } finally {
    searching.set(db, before);
  }
}
