import { benchServerWait } from './server-wait.ts';
import { benchMainHolds } from './main-holds.ts';
import { benchContamination } from './contamination.ts';
import { benchDedup } from './dedup.ts';
import { benchDedupGrowth } from './dedup-growth.ts';
import { benchEstimate } from './estimate.ts';
import { benchEngine } from './engine.ts';
import { benchEndToEnd } from './end-to-end.ts';
import { benchFilePass } from './file-pass.ts';
import { benchGrid } from './grid.ts';
import { benchHttp } from './http.ts';
import { benchImport } from './import.ts';
import { benchReady } from './ready.ts';
import { benchJudgmentChoice } from './judgment-choice.ts';
import { benchJudgmentEncoding } from './judgment-encoding.ts';
import { benchJudgmentText } from './judgment-text.ts';
import { benchMemory } from './memory.ts';
import { benchPrecision } from './precision.ts';
import { benchShards } from './shards.ts';
import { mib } from './stats.ts';
import { benchWorkers } from './workers.ts';
import { useCompileCache } from '../src-main/service/threads/compile-cache.ts';

/**
 * `npm run bench`: every benchmark of the project in one run, printed as
 * tables of ratios against peers measured in the same run. Figures depend on
 * the machine; compare runs on the same one. Sizes:
 * BENCH_SAMPLES_PER_TYPE the engine part (default 25,000 x 4 types);
 * BENCH_WORKER_SAMPLES the worker pool part (default 100,000 samples);
 * BENCH_PASS_ROWS the whole-pass part (default 100,000 rows);
 * BENCH_IMPORT_ROWS the import and ready parts (default 200,000 rows);
 * BENCH_GRID_ROWS the grid part (default 1,000,000 rows);
 * BENCH_SHARD_ROWS the shards part (default 10,000 rows);
 * BENCH_DEDUP_ROWS the near-duplicate part (default 1,000,000 rows);
 * BENCH_APP_ROWS the app part (default 1,000,000 rows; needs Chromium);
 * BENCH_MEMORY_REQUESTS the server-memory part (default 20,000 requests);
 * BENCH_E2E_ROWS the end-to-end part (default 1,000,000 rows);
 * BENCH_PRECISION_SAMPLES the precision part's examples per check (default 3).
 * BENCH_ONLY=engine,workers runs only the named parts.
 */
const size = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

// The desktop app and `svc` start every thread with Node's compile cache (threads/compile-cache.ts,
// bin/svc.js); so do the app's threads the bench starts in its own process (a dataset's scan and
// index, the language thread), and the children it starts inherit the folder.
useCompileCache();

const PARTS: [string, () => Promise<unknown>][] = [
  ['engine', () => benchEngine(size('BENCH_SAMPLES_PER_TYPE', 25_000))],
  ['workers', () => benchWorkers(size('BENCH_WORKER_SAMPLES', 100_000))],
  ['file-pass', () => benchFilePass(size('BENCH_PASS_ROWS', 100_000))],
  ['http', () => benchHttp()],
  ['memory', () => benchMemory(size('BENCH_MEMORY_REQUESTS', 20_000))],
  ['import', () => benchImport(size('BENCH_IMPORT_ROWS', 200_000))],
  ['ready', () => benchReady(size('BENCH_IMPORT_ROWS', 200_000))],
  ['grid', () => benchGrid(size('BENCH_GRID_ROWS', 1_000_000))],
  ['shards', () => benchShards(size('BENCH_SHARD_ROWS', 10_000))],
  ['judgment-text', () => benchJudgmentText()],
  ['judgment-encoding', () => benchJudgmentEncoding()],
  ['judgment-choice', () => benchJudgmentChoice()],
  ['precision', () => benchPrecision()],
  ['estimate', () => benchEstimate()],
  ['contamination', () => benchContamination()],
  ['dedup', () => benchDedup(size('BENCH_DEDUP_ROWS', 1_000_000))],
  [
    'dedup-growth',
    () => {
      const largest = size('BENCH_DEDUP_GROWTH_ROWS', 1_000_000);
      return benchDedupGrowth([largest / 20, largest / 5, largest].map(Math.round));
    },
  ],
  // Loaded when it runs: it needs Chromium, which loading it finds or installs (a minute of apt
  // on a fresh machine that other parts need not wait for).
  ['app', async () => (await import('./app.ts')).benchApp(size('BENCH_APP_ROWS', 1_000_000))],
  [
    'server-wait',
    async () => {
      await benchServerWait(size('BENCH_WAIT_ROWS', 50_000));
      await benchMainHolds(size('BENCH_WAIT_ROWS', 50_000));
    },
  ],
  ['end-to-end', () => benchEndToEnd(size('BENCH_E2E_ROWS', 1_000_000))],
];

const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !PARTS.some(([part]) => part === name)) ?? [];
if (unknown.length > 0) {
  console.error(
    `bench: no part named ${unknown.join(', ')} (parts: ${PARTS.map(([p]) => p).join(', ')})`,
  );
  process.exit(2);
}
console.log(`# svc bench: node ${process.version}, ${process.platform}/${process.arch}`);
for (const [name, run] of PARTS) {
  if (!only || only.includes(name)) await run();
}
console.log(`\npeak RSS: ${mib(process.resourceUsage().maxRSS * 1024)}`);
