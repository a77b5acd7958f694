import { parentPort, workerData } from 'node:worker_threads';
import { releaseHeap } from '../../engine/release-heap.ts';
import { openReadOnly } from '../../store/db.ts';
import {
  computeScan,
  foundBuffers,
  foundOf,
  type ScanComputed,
  type ScanFound,
  type ScanInput,
} from './scan-compute.ts';
import { rowChecksOf, type RowChecks } from './row-checks.ts';
import { sharedWith } from './scan-slices.ts';
import {
  closeSignatureCache,
  openSignatureCache,
  pruneSignatures,
  saveSignatures,
  type SignatureCache,
} from '../../store/signature-cache.ts';
import { datasetIds } from '../../store/datasets.ts';
import { lowerThisThread } from '../threads/background-priority.ts';

/**
 * A dataset scan's reading and computing (scan-compute.ts) on a thread of
 * its own, with a read-only connection to the app's database: one scan per
 * worker, started by sqlite.ts, which writes what it finds, asking for the
 * checks of a block of rows at a time until it ends the worker. The
 * signatures it computes it keeps itself (store/signature-cache.ts).
 * WAL lets it read beside the main connection's writes.
 */

export type ScanRequest =
  | { type: 'checks'; id: number; positions: number[] }
  /** No more questions: the port closes and the thread ends once its slice workers have. */
  | { type: 'end' };

export type ScanReply =
  | { type: 'done'; found: ScanFound }
  | { type: 'failed'; message: string }
  | { type: 'checks'; id: number; checks: RowChecks[] };

// Background work: the server's own thread and the grid's queries go first (threads/background-priority.ts).
lowerThisThread();
const { file, input } = workerData as { file: string; input: ScanInput };
const port = parentPort;
const db = openReadOnly(file);
// On its own thread nothing waits for it: the steps run straight on.
const pause = (): Promise<void> => Promise.resolve();

/**
 * The scan, asked for its rows' checks until it is ended. Its results are held by
 * this variable alone (nothing else at module level): once it is dropped,
 * the collection before the thread ends frees them here, where a heap
 * still holding them had its pages freed by the main thread (its worker
 * holds a million rows' results: ~0.1 s of the server's thread, see
 * engine/release-heap.ts).
 */
let computed: ScanComputed | undefined;
port?.on('message', (request: ScanRequest) => {
  if (request.type === 'end') {
    port.close();
    computed = undefined;
    releaseHeap();
    return;
  }
  if (!computed) return;
  const checks = rowChecksOf(computed, request.positions);
  port.postMessage({ type: 'checks', id: request.id, checks } satisfies ScanReply);
});

/** Computes the scan and tells its findings; keeps the results in `computed`, nowhere else. */
async function scan(): Promise<void> {
  let cache: SignatureCache | undefined;
  try {
    cache = openSignatureCache(db);
    const keep = cache;
    // The signatures of datasets deleted since go first (the scan's thread is the cache's writer).
    pruneSignatures(cache, datasetIds(db));
    computed = await computeScan(db, input, {
      pause,
      signatures: (signatures) => saveSignatures(keep, input.datasetId, signatures),
      runner: (matcher) => sharedWith(db, matcher, input.workers),
    });
    const found = foundOf(computed);
    port?.postMessage({ type: 'done', found } satisfies ScanReply, foundBuffers(found));
  } catch (error) {
    port?.postMessage({ type: 'failed', message: (error as Error).message } satisfies ScanReply);
  } finally {
    if (cache) closeSignatureCache(cache);
    db.close();
  }
}

await scan();
