import { parentPort, workerData } from 'node:worker_threads';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { RowsQuery } from '../../../src-shared/owner/datasets.ts';
import { openReadOnly } from '../../store/db.ts';
import { indexedSearch } from '../../store/search-index.ts';
import { datasetRows } from './rows.ts';

/**
 * The grid's queries on a thread of their own (see grid-queries.ts): a
 * read-only connection to the app's database answers them one at a time, so
 * a long one (a text search over a million rows) never holds up the main
 * thread's requests. WAL lets it read beside the main connection's writes,
 * and beside the search index's builder (search-index-worker.ts).
 */

export type GridRequest = { type: 'rows'; id: number; query: z.output<typeof RowsQuery> };

export type GridReply =
  | { type: 'rows'; id: number; page: ReturnType<typeof datasetRows> }
  | { type: 'rows'; id: number; error: { code: AppError['code']; message: string } };

const { file } = workerData as { file: string };
const db = openReadOnly(file);
const port = parentPort;

port?.on('message', (request: GridRequest) => {
  const { id, query } = request;
  let reply: GridReply;
  try {
    // A search is answered from the dataset's index, as far as it is built (search-index.ts).
    const searching = query.filter.search !== undefined && query.filter.search !== '';
    const page = datasetRows(
      db,
      query,
      searching ? indexedSearch(db, query.dataset_id) : undefined,
    );
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
