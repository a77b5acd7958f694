import type { Db } from '../../store/db.ts';
import type { LeanSearchText, RowSearch } from '../../store/search-text.ts';
import { gridText } from './grid-text.ts';
import { datasetMapping, sampleReader } from './row-sample.ts';

/**
 * A row stored once (migration 8) is searched in the same text as the rows
 * before it kept: the grid's text of its sample, lowercased (grid-text.ts).
 * The store's searches and the search index are given it per dataset.
 */
export function leanSearchText(db: Db, datasetId: string): LeanSearchText {
  const sampleOf = sampleReader(db, datasetId);
  return {
    // The mapping is read (a query) before the search's own query runs.
    prepare: () => void datasetMapping(db, datasetId),
    text: (original, sourcePath) =>
      gridText(sampleOf({ sample_json: '', lean_original: original, source_path: sourcePath }))
        .search_text,
  };
}

/**
 * What a text search over the dataset's rows needs (see store/search-text.ts):
 * `index`, the dataset's complete search index when the connection has one
 * (the grid worker's, see grid-worker.ts).
 */
export function rowSearch(db: Db, datasetId: string, index?: string): RowSearch {
  return { leanText: leanSearchText(db, datasetId), index };
}
