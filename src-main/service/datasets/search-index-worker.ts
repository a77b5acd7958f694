import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnly } from '../../store/db.ts';
import { SearchIndexBuilder, type IndexProgress } from '../../store/search-index.ts';
import { leanSearchText } from './search-text.ts';
import { lowerThisThread } from '../threads/background-priority.ts';

/**
 * The search index's builder on a thread of its own (see
 * store/search-index.ts): a read-only connection to the app's database and
 * the one connection that writes the index's file. It works through every
 * dataset not yet indexed, a large transaction at a time, while the grid's
 * worker answers searches from what is built (WAL: neither waits for the
 * other), and tells how far it is after each.
 */

export type IndexRequest = { type: 'index' };
export type IndexReply = { type: 'progress'; progress: IndexProgress };

/** While a dataset still imports, how often its new rows are looked for (no one says). */
const IMPORTING_POLL_MS = 100;

// Background work: the server's own thread and the grid's queries go first (threads/background-priority.ts).
lowerThisThread();
const { file } = workerData as { file: string };
const db = openReadOnly(file);
const port = parentPort;
const builder = new SearchIndexBuilder(db, (datasetId) => leanSearchText(db, datasetId));

// Indexes complete from an earlier run are told at once: a wait for one would otherwise hear
// only of the indexes this worker builds.
for (const datasetId of builder.completed()) {
  const progress = { dataset_id: datasetId, indexed: 0, total: 0, complete: true };
  port?.postMessage({ type: 'progress', progress } satisfies IndexReply);
}

let building = false;
let again = false;

const build = (): void => {
  if (building) {
    again = true;
    return;
  }
  building = true;
  again = false;
  const step = (): void => {
    let progress: IndexProgress | null;
    try {
      progress = builder.step();
    } catch (error) {
      console.error('search index: building stopped:', error);
      building = false;
      return;
    }
    if (progress) {
      port?.postMessage({ type: 'progress', progress } satisfies IndexReply);
      // The next transaction after the messages are handled (one may ask for more).
      setImmediate(step);
      return;
    }
    if (again || builder.importing()) {
      again = false;
      setTimeout(step, IMPORTING_POLL_MS);
      return;
    }
    building = false;
  };
  setImmediate(step);
};
build();

// Its one request: a dataset is importing, was imported or deleted.
port?.on('message', (_request: IndexRequest) => build());
