import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { leafText } from '../../../src-shared/row-fields.ts';
import type { Db } from '../../store/db.ts';
import type { IndexedSearch, LeanSearchText, RowSearch } from '../../store/search-text.ts';
import { datasetMapping, sampleReader } from './row-sample.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';
import { searchFold } from '../../../src-shared/search-fold.ts';

/**
 * The text a search looks in, per row: every field of the row as read (its
 * original: mapped and unmapped fields alike, every turn of a conversation),
 * one leaf a line, folded as searches are (src-shared/row-fields.ts,
 * src-shared/search-fold.ts). A row read from a
 * tree (one path of an OpenAssistant tree) is searched in its own turns, not
 * in the whole tree it shares with its sibling paths, so the text of a
 * dataset stays linear in its size. The store's scans and the search index
 * are given it per dataset.
 */

/** The turns' texts of a path of a tree (the rest of its sample is roles and task type). */
const pathText = (sample: Sample): string =>
  sample.task_type === 'conversation'
    ? sample.messages.map((message) => message.content).join('\n')
    : leafText(sample);

export function leanSearchText(db: Db, datasetId: string): LeanSearchText {
  const sampleOf = sampleReader(db, datasetId);
  let tree: boolean | undefined;
  const isTree = (): boolean => {
    // Rows that are samples already (no mapping) are no tree: their original is all there is.
    if (tree === undefined) {
      try {
        tree = datasetMapping(db, datasetId).tree !== undefined;
      } catch {
        tree = false;
      }
    }
    return tree;
  };
  return {
    // The mapping is read (a query) before the search's own query runs.
    prepare: () => void isTree(),
    text: (original, sourcePath) =>
      searchFold(
        isTree()
          ? pathText(
              sampleOf({ sample_json: '', lean_original: original, source_path: sourcePath }),
            )
          : leafText(parseJsonExact(original)),
      ),
  };
}

/**
 * What a text search over the dataset's rows needs (see store/search-text.ts):
 * `index`, the dataset's search index when the connection has one (the grid
 * worker's, see grid-worker.ts).
 */
export function rowSearch(db: Db, datasetId: string, index?: IndexedSearch): RowSearch {
  return { leanText: leanSearchText(db, datasetId), index };
}
