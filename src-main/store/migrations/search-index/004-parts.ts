import type { Migration } from '../../migrate.ts';

/**
 * The index's rows moved into parts, each a file of its own written by a
 * thread of its own (store/search-index-part.ts); this file keeps how the
 * rows are shared among them (`layout`, one row, set when the file is first
 * opened with it) and how far every part together is. Every index is built
 * again; the tables of the old layout are dropped when the file is opened.
 */
export const parts: Migration = {
  version: 4,
  name: 'the index in parts',
  up: `CREATE TABLE layout (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      parts INTEGER NOT NULL,
      chunk INTEGER NOT NULL);
    DELETE FROM indexed`,
};
