import type { Db } from '../../store/db.ts';
import { gridQueries } from './grid-queries.ts';
import { deleteDatasetRecord, deleteRowSlice, setDatasetState } from '../../store/datasets.ts';

/** Rows deleted per statement: big datasets go in slices, yielding between them. */
export const DELETE_SLICE_ROWS = 20_000;

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Removes a dataset with its rows, errors and runs. It leaves the lists at
 * once (state `deleting`); its rows then go a slice at a time so the event
 * loop (the server, the window's IPC) never waits on one long statement.
 */
export async function removeDataset(db: Db, id: string): Promise<void> {
  setDatasetState(db, id, 'deleting');
  while (deleteRowSlice(db, id, DELETE_SLICE_ROWS) > 0) await nextTick();
  deleteDatasetRecord(db, id);
  // Its search index goes too (the grid worker's).
  gridQueries(db).reindex();
}
