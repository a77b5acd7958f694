import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { loadBuiltinEngine } from '../src-main/engine/builtin/backend.ts';
import { warmTokenizer } from '../src-main/engine/tokens.ts';
import { loadFileFormats } from '../src-main/files/index.ts';
import { warmEngineHere } from '../src-main/service/runs/warm-engine.ts';
import { createHarness } from '../src-main/service/datasets/testing/harness.ts';
import { gridQueries } from '../src-main/service/datasets/grid-queries.ts';
import { WalKeeper } from '../src-main/service/datasets/wal-keeper.ts';
import { templatedFile } from './server-wait.ts';
import { percentile } from './stats.ts';

/**
 * The main thread's longest holds, measured from inside the process: the
 * owner handlers over a database file, through a templated dataset's import,
 * scan, Overview, searches, a refine of every row and the export, with a 1 ms timer that reads the main
 * thread's own CPU time (process.threadCpuUsage) at each turn. The CPU spent
 * between two turns of the timer is what a request arriving then waits for,
 * whatever else runs on the machine: on a busy shared machine the wall-clock
 * waits of the server-wait part mostly measure the neighbours.
 */

const TICK_MS = 1;

export async function benchMainHolds(rows: number): Promise<void> {
  const h = createHarness({ onDisk: true });
  // As `svc serve` and the desktop app start: what a request would otherwise load is loaded first.
  warmTokenizer();
  await Promise.all([loadBuiltinEngine(), loadFileFormats()]);
  await warmEngineHere();
  // As `svc serve` and the desktop app run it: the WAL is checkpointed off the main thread.
  const walKeeper = WalKeeper.start(h.db);
  const path = await templatedFile(h.dir, rows);
  let phase = 'import';
  const holds = new Map<string, number[]>();
  let last = process.threadCpuUsage();
  const record = (): void => {
    const now = process.threadCpuUsage();
    const ms = (now.user + now.system - last.user - last.system) / 1000;
    last = now;
    const values = holds.get(phase);
    if (values) values.push(ms);
    else holds.set(phase, [ms]);
  };
  const timer = setInterval(record, TICK_MS);
  // A hold may be the garbage collector's pause, not the code's: its longest, per phase (the
  // observer hears of a pause a turn later, so one at a phase's very end counts for the next).
  const gcPauses = new Map<string, number>();
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcPauses.set(phase, Math.max(gcPauses.get(phase) ?? 0, entry.duration));
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  // What ran since the last turn belongs to the phase that ran it, not to the next one.
  const enter = (next: string): void => {
    record();
    phase = next;
  };
  try {
    const dataset = await h.importFile(path, 'gsm8k', 'holds');
    enter('scan');
    await h.scanned(dataset.id);
    enter('Overview x5');
    for (let i = 0; i < 5; i++) await h.call('datasetOverview', { dataset_id: dataset.id });
    enter('searches x5');
    for (const search of ['eggs', 'janet', 'how many', 'ducks lay', '(7)']) {
      await h.call('datasetRows', {
        dataset_id: dataset.id,
        offset: 0,
        limit: 50,
        filter: { search },
      });
    }
    enter('refine all');
    await h.finished(
      await h.call('startRun', {
        dataset_id: dataset.id,
        operation: 'refine',
        scope: { kind: 'all' },
      }),
    );
    // A run's scope and its estimate are worked out before anything runs: over a filter or a
    // selection of every row, not only the whole dataset's range.
    const search = { kind: 'filter', filter: { search: 'eggs' } } as const;
    const everyRow = {
      kind: 'selection',
      indices: Array.from({ length: rows }, (_, i) => rows - 1 - i),
    } as const;
    for (const [name, scope] of [
      ['all', { kind: 'all' }],
      ['a search', search],
      ['every row selected', everyRow],
    ] as const) {
      enter(`estimate refine, ${name}`);
      await h.call('estimateRun', { dataset_id: dataset.id, operation: 'refine', scope });
    }
    for (const [name, scope] of [
      ['a search', search],
      ['every row selected', everyRow],
    ] as const) {
      enter(`start and cancel a refine, ${name}`);
      const run = await h.call('startRun', { dataset_id: dataset.id, operation: 'refine', scope });
      await h.call('cancelRun', { run_id: run.id });
    }
    enter('export JSONL');
    await h.call('exportDataset', {
      dataset_id: dataset.id,
      format: 'jsonl',
      path: join(h.dir, 'export.jsonl'),
    });
    for (const decision of ['dropped', 'restored'] as const) {
      enter(`${decision === 'dropped' ? 'drop' : 'restore'} every row`);
      await h.call('decide', { dataset_id: dataset.id, filter: {}, decision });
    }
    enter('delete');
    await h.call('deleteDataset', { dataset_id: dataset.id });
    record();
  } finally {
    clearInterval(timer);
    gc.disconnect();
    await walKeeper?.stop();
    await gridQueries(h.db).close();
  }
  console.log(
    `\n## main thread's longest holds, its own CPU time between two turns of a ${TICK_MS} ms timer ` +
      `(${rows.toLocaleString('en-US')} templated rows, in process)`,
  );
  console.log('| phase | turns | p99 | worst | longest GC pause |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, values] of holds) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `| ${name} | ${values.length} | ${percentile(sorted, 99).toFixed(1)} ms | ` +
        `${(sorted.at(-1) ?? 0).toFixed(1)} ms | ${(gcPauses.get(name) ?? 0).toFixed(1)} ms |`,
    );
  }
  const worst = Math.max(...[...holds.values()].flat());
  console.log(`longest hold of all: ${worst.toFixed(1)} ms (goal 20 ms; a wait's goal 50 ms)`);
}
