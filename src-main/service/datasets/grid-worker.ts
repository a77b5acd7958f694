import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { RowsQuery } from '../../../src-shared/owner/datasets.ts';
import { datasetRows } from './rows.ts';
import './search-text.ts';

/**
 * The grid's queries on a thread of their own (see grid-queries.ts): a
 * read-only connection to the app's database answers them one at a time, so
 * a long one (a text search over a million rows) never holds up the main
 * thread's requests. WAL lets it read beside the main connection's writes.
 */

export interface GridRequest {
  id: number;
  query: z.output<typeof RowsQuery>;
}

export type GridReply =
  | { id: number; page: ReturnType<typeof datasetRows> }
  | { id: number; error: { code: AppError['code']; message: string } };

const { file } = workerData as { file: string };
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const port = parentPort;
port?.on('message', ({ id, query }: GridRequest) => {
  let reply: GridReply;
  try {
    reply = { id, page: datasetRows(db, query) };
  } catch (error) {
    reply = {
      id,
      error:
        error instanceof AppError
          ? { code: error.code, message: error.message }
          : { code: 'internal_error', message: (error as Error).message },
    };
  }
  port.postMessage(reply);
});
