import { parentPort, workerData } from 'node:worker_threads';
import { releaseHeap } from '../release-heap.ts';
import { labelLanguages, loadIdentifier } from './languages-count.ts';

/**
 * Language identification in a worker of its own: eld's n-gram tables take
 * ~45 MB of heap, which a short-lived worker gives back when it exits
 * instead of the main process keeping them for good. Given its texts, it
 * answers each text's language at once; started ahead (`'ahead'`), it loads
 * the identifier (~80 ms from its tables' JSON copy, see eld-tables.ts; a
 * third of a second from eld's module) and waits for them.
 */
if (workerData === 'ahead') {
  await loadIdentifier();
  parentPort?.once('message', (texts: string[]) => {
    void labelLanguages(texts).then((labels) => {
      parentPort?.postMessage(labels);
      // Then it ends, its heap given back here (see release-heap.ts).
      releaseHeap();
    });
  });
} else {
  parentPort?.postMessage(await labelLanguages(workerData as string[]));
  releaseHeap();
}
