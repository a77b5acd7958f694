import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { releaseHeap } from '../release-heap.ts';

/** A thread that makes a heap of garbage, then gives it back (release-heap.test.ts). */

const kept: { text: string; pair: number[] }[][] = [];
for (let round = 0; round < 20; round++) {
  kept.pop();
  const rows: { text: string; pair: number[] }[] = [];
  for (let i = 0; i < 200_000; i++) rows.push({ text: `row ${i} of ${round}`, pair: [i, round] });
  kept.push(rows);
}
const before = getHeapStatistics().total_physical_size;
kept.pop();
releaseHeap();
const after = getHeapStatistics().total_physical_size;
const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
parentPort?.postMessage({ before, after, exposed });
