import { parentPort } from 'node:worker_threads';
import { recordResolutions } from './record-resolutions.ts';

/**
 * An engine worker for worker-modules.test.ts, as the pool starts one
 * (worker.ts), that also says which modules it has loaded: the URLs
 * resolved so far, sent again whenever that grows (at most every 10 ms,
 * until it ends).
 */
const loaded = recordResolutions();

let said = 0;
setInterval(() => {
  if (loaded.size === said) return;
  said = loaded.size;
  parentPort?.postMessage({ modules: [...loaded] });
}, 10).unref();

await import('../worker.ts');
