import type { RowDetail } from '../../../src-shared/owner/datasets.ts';
import type { Db } from '../../store/db.ts';
import { rowDetailBytes } from '../../store/datasets-rows.ts';
import type { Answer } from '../owner/encoded-json.ts';
import { promised } from '../owner/promised.ts';
import { gridQueries } from './grid-queries.ts';
import { datasetRow } from './rows.ts';

/**
 * From this many bytes of stored JSON on, a row's detail is read, built and
 * encoded on the grid's worker. Below it the detail is built here: about a
 * millisecond for a row of ordinary size, answered at once even while the
 * worker runs a long search. Above it, parsing the row and serializing the
 * answer took this thread ~8 ms a MB (a row of 20 MB: 165 ms).
 */
export const LARGE_ROW_BYTES = 512 * 1024;

/** `datasetRow`'s answer: built here, or on the grid's worker for a large row. */
export function rowDetail(
  db: Db,
  input: { dataset_id: string; index: number },
): Promise<Answer<RowDetail>> {
  const bytes = rowDetailBytes(db, input.dataset_id, input.index);
  // No such row (or dataset): datasetRow says which, here.
  if (bytes === undefined || bytes < LARGE_ROW_BYTES) return promised(() => datasetRow(db, input));
  return gridQueries(db).row(input);
}
