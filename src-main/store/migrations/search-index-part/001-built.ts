import type { Migration } from '../../migrate.ts';

/**
 * A part of the search index (svc-search-part-<n>.sqlite, see
 * store/search-index-part.ts): which datasets it holds and how far each is
 * built, and the layout its rows were shared by (`part_layout`: a part of
 * another layout holds other chunks, and is built again). Each dataset's tables (`text_<id>`, `fts_<id>`) are made when its
 * build begins and dropped with the dataset: data, not a schema change.
 */
export const built: Migration = {
  version: 1,
  name: 'datasets a part holds and how far',
  up: `CREATE TABLE built (
      dataset_id TEXT PRIMARY KEY,
      texts INTEGER NOT NULL,
      through INTEGER NOT NULL,
      complete INTEGER NOT NULL);
    CREATE TABLE part_layout (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      parts INTEGER NOT NULL,
      chunk INTEGER NOT NULL)`,
};
