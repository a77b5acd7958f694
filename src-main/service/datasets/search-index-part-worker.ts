import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnly } from '../../store/db.ts';
import type { IndexLayout } from '../../store/search-index-layout.ts';
import { SearchIndexPart, type PartProgress } from '../../store/search-index-part.ts';
import { leanSearchText } from './search-text.ts';
import { lowerThisThread } from '../threads/background-priority.ts';

/**
 * One part of the search index built on a thread of its own (see
 * store/search-index.ts), started by the index's own worker
 * (search-index-worker.ts): a read-only connection to the app's database and
 * the one connection that writes the part's file. It works through every
 * dataset not yet in the part, a large transaction at a time, and tells how
 * far it is after each.
 */

export type PartRequest = { type: 'index' };
export type PartReply = { type: 'progress'; progress: PartProgress };

/** While a dataset still imports, how often its new rows are looked for (no one says). */
const IMPORTING_POLL_MS = 100;

// Background work: the server's own thread and the grid's queries go first (threads/background-priority.ts).
lowerThisThread();
const { file, part, layout } = workerData as { file: string; part: number; layout: IndexLayout };
const db = openReadOnly(file);
const port = parentPort;
const builder = new SearchIndexPart(db, part, layout, (datasetId) => leanSearchText(db, datasetId));

const tell = (progress: PartProgress): void =>
  port?.postMessage({ type: 'progress', progress } satisfies PartReply);

// What the part holds from an earlier run, told first: the index's worker knows where every part is.
for (const state of builder.states()) tell(state);

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
    // A failure is not caught: it ends this thread, and the index's worker stops the index.
    const progress = builder.step();
    if (progress) {
      tell(progress);
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
port?.on('message', (_request: PartRequest) => build());
