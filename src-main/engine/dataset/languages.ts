import { runOnce, workerScript } from '../worker-script.ts';
import { countLanguages } from './languages-count.ts';

/**
 * The languages of texts (see languages-count.ts), identified in a worker
 * thread that exits when done, so the main process never holds the
 * identifier's tables. From source the worker is the .ts beside this file;
 * in the desktop app's bundle, `languages-worker.js` beside the main chunk
 * (electron.vite.config.ts builds it as an entry of its own). Where no
 * worker can start, the texts are identified here instead.
 */
export async function identifyLanguages(texts: readonly string[]): Promise<[string, number][]> {
  if (texts.length === 0) return [];
  const url = workerScript(import.meta.url, 'languages-worker.ts', 'languages-worker.js');
  try {
    return await runOnce<[string, number][]>(url, texts);
  } catch (error) {
    console.error('language identification: no worker, identifying in process:', error);
    return countLanguages(texts);
  }
}
