import { parentPort, Worker, workerData } from 'node:worker_threads';
import { workerScript } from '../../engine/worker-script.ts';
import { openReadOnly } from '../../store/db.ts';
import { SearchIndexMeta, type IndexProgress } from '../../store/search-index.ts';
import type { PartReply, PartRequest } from './search-index-part-worker.ts';
import { lowerThisThread } from '../threads/background-priority.ts';

/**
 * The search index's own thread (see store/search-index.ts): it keeps the
 * index's file, starts a thread per part of the index
 * (search-index-part-worker.ts), and from what the parts tell writes how far
 * every part together is and tells it. From source a part's script is the .ts
 * beside this file; in the desktop app's bundle `search-index-part-worker.js`,
 * an entry of its own.
 */

export type IndexRequest = { type: 'index' };
export type IndexReply = { type: 'progress'; progress: IndexProgress };

lowerThisThread();
const { file } = workerData as { file: string };
const db = openReadOnly(file);
const port = parentPort;
const meta = new SearchIndexMeta(db);

// Indexes complete from an earlier run are told at once: a wait for one would otherwise hear
// only of the indexes the parts build.
for (const datasetId of meta.completed()) {
  const progress = { dataset_id: datasetId, indexed: 0, total: 0, complete: true };
  port?.postMessage({ type: 'progress', progress } satisfies IndexReply);
}

const script = workerScript(
  import.meta.url,
  'search-index-part-worker.ts',
  'search-index-part-worker.js',
);
const parts = Array.from({ length: meta.layout.parts }, (_, part) => {
  const worker = new Worker(script, {
    name: `svc-search-part-${part}`,
    workerData: { file, part, layout: meta.layout },
  });
  worker.on('message', (reply: PartReply) => {
    const progress = meta.record(reply.progress);
    if (progress) port?.postMessage({ type: 'progress', progress } satisfies IndexReply);
  });
  // A part that fails stops the index: the grid hears of it and searches scan the rows.
  worker.on('error', (error) => {
    throw error;
  });
  worker.on('exit', (code) => {
    throw new Error(`the search index's part ${part} exited with ${code}`);
  });
  return worker;
});

// Its one request: a dataset is importing, was imported or deleted.
port?.on('message', (_request: IndexRequest) => {
  meta.prune();
  for (const part of parts) part.postMessage({ type: 'index' } satisfies PartRequest);
});
