import type { Migration } from '../../migrate.ts';

/**
 * The search index's own file (svc-search.sqlite, see store/search-index.ts):
 * which datasets it holds and how far each is built. Each dataset's index is
 * a table of its own (`fts_<id>`, FTS5 with the trigram tokenizer), made when
 * its build begins and dropped with the dataset: data, not a schema change.
 * `IF NOT EXISTS`: a file written before the index had migrations holds this
 * table already, with the indexes built, which are kept.
 */
export const indexed: Migration = {
  version: 1,
  name: 'datasets indexed and how far',
  up: `CREATE TABLE IF NOT EXISTS indexed (
      dataset_id TEXT PRIMARY KEY, through INTEGER NOT NULL, complete INTEGER NOT NULL)`,
};
