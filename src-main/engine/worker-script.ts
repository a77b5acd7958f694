import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The script of a worker thread, found from the module that starts it. From
 * source (vitest, `bin/svc.js`) it is `sourceName`, a .ts beside that module;
 * in the desktop app's bundle it is `bundleName`, an entry of its own in
 * electron.vite.config.ts, in out/main, while the module starting it may
 * have landed in out/main or in out/main/chunks. The names are not literals
 * in `new URL(...)` so that the bundler leaves them alone instead of copying
 * the source as an asset.
 */
export function workerScript(from: string, sourceName: string, bundleName: string): URL {
  const fromSource = from.endsWith('.ts');
  const name = fromSource ? sourceName : bundleName;
  const candidates = fromSource ? ['./'] : ['./', '../'];
  const urls = candidates.map((dir) => new URL(dir + name, from));
  return urls.find((url) => existsSync(fileURLToPath(url))) ?? (urls[0] as URL);
}

/**
 * A worker that has given its answer ends by itself, after giving its heap
 * back on its own thread (release-heap.ts): ended from outside, its pages
 * were freed later by the main thread. One that has not ended after this
 * long is ended from outside.
 */
export const ANSWERED_WORKER_GRACE_MS = 10_000;

/** Ends `worker` if it has not ended ANSWERED_WORKER_GRACE_MS from now; it keeps no process alive. */
export function endAfterGrace(worker: Worker): void {
  worker.unref();
  const timer = setTimeout(() => void worker.terminate(), ANSWERED_WORKER_GRACE_MS).unref();
  worker.once('exit', () => clearTimeout(timer));
}

/**
 * Runs a worker thread that does one job: resolves with its first message
 * (the worker then ends by itself, see endAfterGrace), rejects when it cannot
 * start, fails, or exits without one. Callers fall back to doing the job
 * themselves.
 */
export function runOnce<T>(script: URL, workerData: unknown, name?: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(script, { workerData, ...(name ? { name } : {}) });
    worker.once('message', (message: T) => {
      resolve(message);
      endAfterGrace(worker);
    });
    worker.once('error', reject);
    // After a message this is a no-op: the promise has settled.
    worker.once('exit', (code) => reject(new Error(`the worker exited with ${code}`)));
  });
}
