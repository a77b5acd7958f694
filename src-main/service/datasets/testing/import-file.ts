import { builtinBackend } from '../../../engine/builtin/backend.ts';
import { datasetRecord } from '../../../store/datasets.ts';
import { openDatabase } from '../../../store/db.ts';
import { createServiceContext } from '../../context/service-context.ts';
import { createOwnerHandlers } from '../../owner/handlers.ts';
import { datasetScanner } from '../scanner.ts';

/**
 * `node import-file.ts FILE DATA_DIR SHAPE`: imports one file into a database
 * and prints `{summary, seconds, peak_heap_mb}` as JSON. The bounded-memory
 * test runs it in a child process with a small heap limit.
 */
const [file, dataDir, shape] = process.argv.slice(2);
if (file === undefined || dataDir === undefined || shape === undefined) {
  throw new Error('usage: import-file.ts FILE DATA_DIR SHAPE');
}
const db = openDatabase(dataDir);
const ctx = createServiceContext(db, dataDir, '0.0.0-test');
let peak = 0;
const handlers = createOwnerHandlers(ctx, {
  address: () => ({ host: '127.0.0.1', port: null, url: null }),
  emit: () => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  },
  backend: () => builtinBackend,
  uploads: {
    pathOf: () => {
      throw new Error('no uploads here');
    },
  },
  downloads: { register: () => '' },
  tempDir: dataDir,
});
const started = performance.now();
const summary = await handlers.importDataset({
  source: { path: file },
  shape: shape as 'gsm8k',
  name: 'bounded',
});
const seconds = (performance.now() - started) / 1000;
// The dataset scan that follows an import must fit in the same heap.
const scanStarted = performance.now();
await datasetScanner(ctx, () => undefined).idle(summary.id);
const scanSeconds = (performance.now() - scanStarted) / 1000;
peak = Math.max(peak, process.memoryUsage().heapUsed);
const scanned = (datasetRecord(db, summary.id)?.scan_json ?? null) !== null;
db.close();
console.log(
  JSON.stringify({
    summary,
    seconds,
    scan_seconds: scanSeconds,
    scanned,
    peak_heap_mb: Math.round(peak / 1e6),
  }),
);
