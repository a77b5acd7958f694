import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { loadIdentifierFast } from './src-main/engine/dataset/eld-tables.ts';
if (isMainThread) {
  const w = new Worker(new URL(import.meta.url), { name: 'eldw' });
  w.on('message', (m) => console.log('worker', m));
} else {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const { source } = await loadIdentifierFast('/tmp/eldc');
  parentPort!.postMessage([source, (performance.now() - t0).toFixed(0)]);
}
