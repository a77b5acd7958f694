import { Worker } from 'node:worker_threads';
import { endAfterGrace, runOnce, workerScript } from '../worker-script.ts';
import { countLabels, labelLanguages as labelHere } from './languages-count.ts';

/**
 * The languages of texts (see languages-count.ts), identified in a worker
 * thread that exits when done, so the main process never holds the
 * identifier's tables. From source the worker is the .ts beside this file;
 * in the desktop app's bundle, `languages-worker.js` beside the main chunk
 * (electron.vite.config.ts builds it as an entry of its own). Where no
 * worker can start, the texts are identified here instead.
 */

const script = (): URL =>
  workerScript(import.meta.url, 'languages-worker.ts', 'languages-worker.js');

/** A worker started ahead, its identifier loading or loaded, waiting for texts. */
let ahead: { worker: Worker; failed: boolean } | undefined;

/**
 * Starts the next identification's worker now (a file pass: at its scan's
 * start), so that loading the identifier is not on the way once the texts
 * are known. It keeps no process alive while it waits.
 */
export function startLanguageIdentification(): void {
  if (ahead) return;
  try {
    const worker = new Worker(script(), { workerData: 'ahead', name: 'svc-languages' });
    const started = { worker, failed: false };
    worker.once('error', () => (started.failed = true));
    worker.once('exit', () => (started.failed = true));
    worker.unref();
    ahead = started;
  } catch {
    // The identification starts its worker when it is asked, as it would have.
  }
}

/** The started worker's answer for `texts`; rejects if it failed or fails. */
function askAhead(worker: Worker, texts: readonly string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    worker.ref();
    worker.once('message', (labels: string[]) => {
      resolve(labels);
      endAfterGrace(worker);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the worker exited with ${code}`)));
    worker.postMessage(texts);
  });
}

/** Each text's language (see languages-count.ts), identified in a worker. */
export async function labelLanguages(texts: readonly string[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const started = ahead;
  ahead = undefined;
  try {
    if (started && !started.failed) {
      try {
        return await askAhead(started.worker, texts);
      } catch {
        // A worker that failed while it waited: a new one is tried below.
      }
    }
    return await runOnce<string[]>(script(), texts);
  } catch (error) {
    console.error('language identification: no worker, identifying in process:', error);
    return labelHere(texts);
  }
}

/** The languages of texts, counted as `countLabels` counts them. */
export async function identifyLanguages(texts: readonly string[]): Promise<[string, number][]> {
  return countLabels(await labelLanguages(texts));
}
