import { parentPort, workerData } from 'node:worker_threads';
import type { z } from 'zod';
import type { ExportColumns, RowsQuery } from '../../../src-shared/owner/datasets.ts';
import { openReadOnly } from '../../store/db.ts';
import { indexedSearch } from '../../store/search-index.ts';
import { datasetRow, datasetRows } from './rows.ts';
import { exportColumns } from './export-columns.ts';
import { answerScope, type ScopeAnswer, type ScopeQuestion } from './scope.ts';
import { encodeError, type WireError } from '../threads/wire-error.ts';

/**
 * The grid's queries on a thread of their own (see grid-queries.ts): a
 * read-only connection to the app's database answers them one at a time, so
 * a long one (a text search over a million rows) never holds up the main
 * thread's requests. WAL lets it read beside the main connection's writes,
 * and beside the search index's builder (search-index-worker.ts). A run's
 * scope is worked out here too: a filter's rows (a search included), a
 * selection sorted, and the scope's size for an estimate. And a large
 * row's detail, read, built and written as JSON here (see row-detail.ts).
 */

export type GridRequest =
  | { type: 'rows'; id: number; query: z.output<typeof RowsQuery> }
  | { type: 'row'; id: number; dataset_id: string; index: number }
  | { type: 'columns'; id: number; dataset_id: string }
  | ({ type: 'scope'; id: number } & ScopeQuestion);

export type GridReply =
  | { type: 'rows'; id: number; page: ReturnType<typeof datasetRows> }
  /** A row's detail as UTF-8 JSON: its buffer is moved, and main sends it as it is. */
  | { type: 'row'; id: number; json: Uint8Array<ArrayBuffer> }
  | { type: 'columns'; id: number; columns: ExportColumns }
  | ({ type: 'scope'; id: number } & ScopeAnswer)
  /** A refusal crosses whole (threads/wire-error.ts): the edge answers it as it would here. */
  | { type: 'error'; id: number; error: WireError };

const encoder = new TextEncoder();
const { file } = workerData as { file: string };
const db = openReadOnly(file);
const port = parentPort;

/** A search is answered from the dataset's index, as far as it is built (search-index.ts). */
const indexIfSearching = (datasetId: string, search: string | undefined) =>
  search !== undefined && search !== '' ? indexedSearch(db, datasetId) : undefined;

function answer(request: GridRequest): { reply: GridReply; transfer: ArrayBuffer[] } {
  if (request.type === 'scope') {
    const scope = answerScope(
      db,
      request,
      indexIfSearching(request.dataset_id, request.filter?.search),
    );
    return {
      reply: { type: 'scope', id: request.id, ...scope },
      transfer: scope.rows ? [scope.rows.buffer as ArrayBuffer] : [],
    };
  }
  if (request.type === 'columns') {
    const columns = exportColumns(db, request.dataset_id);
    return { reply: { type: 'columns', id: request.id, columns }, transfer: [] };
  }
  if (request.type === 'row') {
    const json = encoder.encode(JSON.stringify(datasetRow(db, request)));
    return {
      reply: { type: 'row', id: request.id, json },
      transfer: [json.buffer],
    };
  }
  const { id, query } = request;
  const index = indexIfSearching(query.dataset_id, query.filter.search);
  return { reply: { type: 'rows', id, page: datasetRows(db, query, index) }, transfer: [] };
}

port?.on('message', (request: GridRequest) => {
  let reply: GridReply;
  let transfer: ArrayBuffer[] = [];
  try {
    ({ reply, transfer } = answer(request));
  } catch (error) {
    reply = { type: 'error', id: request.id, error: encodeError(error) };
  }
  port.postMessage(reply, transfer);
});
