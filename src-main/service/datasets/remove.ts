import type { Db } from '../../store/db.ts';
import { gridQueries } from './grid-queries.ts';
import { deleteDatasetRecord, deleteRowSlice, setDatasetState } from '../../store/datasets.ts';
import { inTurns } from './turns.ts';
import { syncWalOffThread } from './wal-sync.ts';

/**
 * Removes a dataset with its rows, errors and runs. It leaves the lists at
 * once (state `deleting`); its rows then go a transaction at a time, each
 * sized to hold the event loop (the server, the window's IPC) a few
 * milliseconds (turns.ts), committed without an fsync; the WAL they grew is
 * flushed off the thread before the record's own (fsync'd) delete, which
 * otherwise wrote them all out on the server's thread: 60-170 ms measured at
 * 50,000 rows, the server waiting.
 */
export async function removeDataset(db: Db, id: string): Promise<void> {
  setDatasetState(db, id, 'deleting');
  await inTurns((size) => deleteRowSlice(db, id, size) > 0);
  await syncWalOffThread(db);
  deleteDatasetRecord(db, id);
  // Its search index goes too (the grid worker's).
  gridQueries(db).reindex();
}
