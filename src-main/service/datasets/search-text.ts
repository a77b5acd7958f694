import { setSearchTextOf } from '../../store/datasets-filter.ts';
import { gridText } from './grid-text.ts';
import { datasetMapping, sampleReader } from './row-sample.ts';

/**
 * A row stored once (migration 8) is searched in the same text as the rows
 * before it kept: the grid's text of its sample, lowercased (grid-text.ts).
 * Imported for its effect by whatever reads the grid (handlers, the grid
 * worker).
 */
setSearchTextOf({
  // The mapping is read (a query) before the search's own query runs.
  prepare: (db, datasetId) => void datasetMapping(db, datasetId),
  text: (db, datasetId, original, sourcePath) =>
    gridText(
      sampleReader(
        db,
        datasetId,
      )({ sample_json: '', lean_original: original, source_path: sourcePath }),
    ).search_text,
});
