import { parentPort, workerData } from 'node:worker_threads';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { RowsQuery } from '../../../src-shared/owner/datasets.ts';
import { openReadOnly } from '../../store/db.ts';
import { SearchIndex } from '../../store/search-index.ts';
import { datasetRows } from './rows.ts';
import { leanSearchText } from './search-text.ts';

/**
 * The grid's queries on a thread of their own (see grid-queries.ts): a
 * read-only connection to the app's database answers them one at a time, so
 * a long one (a text search over a million rows) never holds up the main
 * thread's requests. WAL lets it read beside the main connection's writes.
 */

export type GridRequest =
  | { type: 'rows'; id: number; query: z.output<typeof RowsQuery> }
  /** A dataset was imported or deleted: its search index is built or dropped. */
  | { type: 'index' };

export type GridReply =
  | { type: 'rows'; id: number; page: ReturnType<typeof datasetRows> }
  | { type: 'rows'; id: number; error: { code: AppError['code']; message: string } }
  /** The dataset's search index is complete: its searches are answered from it. */
  | { type: 'indexed'; dataset_id: string };

const { file } = workerData as { file: string };
const db = openReadOnly(file);
const port = parentPort;

// The search index is built a slice at a time, queries answered between slices.
let index: SearchIndex | undefined;
try {
  index = new SearchIndex(db, (datasetId) => leanSearchText(db, datasetId));
} catch (error) {
  console.error('grid worker: no search index, searches scan the rows:', error);
}
// Indexes complete from an earlier run are told at once: a wait for one (whenIndexed) would
// otherwise hear only of the indexes this worker builds.
for (const datasetId of index?.completed() ?? []) {
  port?.postMessage({ type: 'indexed', dataset_id: datasetId } satisfies GridReply);
}
let building = false;
const build = (): void => {
  const searchIndex = index;
  if (!searchIndex || building) return;
  building = true;
  const step = (): void => {
    let result: string | null | undefined;
    try {
      result = searchIndex.step();
    } catch (error) {
      console.error('grid worker: indexing stopped:', error);
      result = null;
    }
    if (typeof result === 'string') port?.postMessage({ type: 'indexed', dataset_id: result });
    if (result === null) building = false;
    else setImmediate(step);
  };
  setImmediate(step);
};
build();

port?.on('message', (request: GridRequest) => {
  if (request.type === 'index') {
    build();
    return;
  }
  const { id, query } = request;
  let reply: GridReply;
  try {
    // A search is answered from the dataset's index once it is complete (this connection's).
    const page = datasetRows(db, query, index?.completeTable(query.dataset_id));
    reply = { type: 'rows', id, page };
  } catch (error) {
    reply = {
      type: 'rows',
      id,
      error:
        error instanceof AppError
          ? { code: error.code, message: error.message }
          : { code: 'internal_error', message: (error as Error).message },
    };
  }
  port.postMessage(reply);
});
