import { parentPort, workerData } from 'node:worker_threads';
import { countLanguages } from './languages-count.ts';

/**
 * Language identification in a worker of its own: eld's n-gram tables take
 * ~45 MB of heap, which a short-lived worker gives back when it exits
 * instead of the main process keeping them for good.
 */
parentPort?.postMessage(await countLanguages(workerData as string[]));
