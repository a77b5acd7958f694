import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signIn, startSvc, stopSvc } from '../e2e/fixtures.ts';
import { ownerCaller, ownerEvents } from './owner-client.ts';
import { Pinger } from './pinger.ts';
import { duckDbReadJson, loadDuckDb, plainInsert, writeGsm8kLike } from './import.ts';
import { mib } from './stats.ts';

/**
 * A dataset's whole life through a real `svc serve`, as a user drives it:
 * drop a file of ROWS GSM8K-like rows (import), see its first rows, wait until
 * it is ready (scan ended, search index complete), search, refine every row, open the
 * Overview, export it as JSON Lines. Each step's time, against the peers
 * measured in the same run on the same file (a plain better-sqlite3 insert of
 * its lines, DuckDB's `read_json_auto`), and the server's peak memory (its
 * VmHWM): memory must stay bounded whatever the file's size.
 */

const POLL_MS = 100;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The peak resident memory of a process (Linux), or undefined elsewhere. */
function peakRss(pid: number | undefined): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}

export async function benchEndToEnd(rows: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-e2e-'));
  const file = join(dir, 'gsm8k-like.jsonl');
  await writeGsm8kLike(file, rows);
  const insertMs = await plainInsert(file, dir);
  const duckdb = await loadDuckDb();
  const duckMs = typeof duckdb === 'string' ? duckdb : await duckDbReadJson(duckdb, file, dir);
  const server = await startSvc();
  // The server's cheap route asked every 100 ms throughout: the worst wait of each step.
  const pinger = new Pinger(server.baseUrl, server.process.pid);
  try {
    const cookie = await signIn(server);
    const owner = ownerCaller(server, cookie);
    const steps: [string, number][] = [];
    const started = performance.now();
    const since = (): number => performance.now() - started;
    // When each dataset's search index was complete, as the server pushes it to the UI.
    const indexedAt = new Map<string, number>();
    const stopEvents = ownerEvents(server, cookie, (event) => {
      if (event.type === 'index' && event.done === true && typeof event.dataset_id === 'string') {
        if (!indexedAt.has(event.dataset_id)) indexedAt.set(event.dataset_id, since());
      }
    });

    // First rows: the grid asks for a page while the import runs.
    let firstRows: number | undefined;
    const importing = owner<{ id: string }>('importDataset', {
      source: { path: file },
      shape: 'gsm8k',
      name: 'end to end',
    });
    const state = { done: false };
    void importing.finally(() => (state.done = true)).catch(() => undefined);
    const { id } = await pinger.phase('import', async () => {
      while (!state.done && firstRows === undefined) {
        const list = await owner<{ id: string; name: string }[]>('listDatasets', {});
        const mine = list.find((d) => d.name === 'end to end');
        if (mine) {
          const page = await owner<{ rows: unknown[] }>('datasetRows', {
            dataset_id: mine.id,
            offset: 0,
            limit: 50,
          }).catch(() => ({ rows: [] }));
          if (page.rows.length > 0) firstRows = since();
        }
        await sleep(POLL_MS);
      }
      return importing;
    });
    const imported = since();
    steps.push(['first rows on screen', firstRows ?? imported]);
    steps.push(['import returned (rows stored)', imported]);

    // Ready: the scan ended and the search index is complete (the first search after both).
    await pinger.phase('scan until ended', async () => {
      for (;;) {
        const overview = await owner<{ scanning: boolean; scan: unknown }>('datasetOverview', {
          dataset_id: id,
        });
        if (!overview.scanning && overview.scan !== null) break;
        await sleep(POLL_MS);
      }
    });
    steps.push(['scan ended', since()]);
    // The index usually completes before the scan ends (at 1M it does): its pings are the scan's
    // then, and a phase of its own would be an empty row of the table.
    if (!indexedAt.has(id)) {
      await pinger.phase('index after the scan, until complete', async () => {
        while (!indexedAt.has(id)) await sleep(POLL_MS);
      });
    }
    stopEvents();
    steps.push(['search index complete', indexedAt.get(id) as number]);
    const searchStarted = performance.now();
    await pinger.phase('search', () =>
      owner('datasetRows', {
        dataset_id: id,
        offset: 0,
        limit: 50,
        filter: { search: 'eggs' },
      }),
    );
    const searchMs = performance.now() - searchStarted;

    const refineStarted = since();
    await pinger.phase('refine all', async () => {
      const run = await owner<{ id: string }>('startRun', {
        dataset_id: id,
        operation: 'refine',
        scope: { kind: 'all' },
      });
      for (;;) {
        const runs = await owner<{ id: string; finished_at: string | null }[]>('listRuns', {
          dataset_id: id,
        });
        if (runs.some((r) => r.id === run.id && r.finished_at !== null)) break;
        await sleep(POLL_MS * 5);
      }
    });
    const refined = since();
    steps.push(['refine of every row done', refined]);

    const overviewStarted = performance.now();
    await pinger.phase('Overview', () => owner('datasetOverview', { dataset_id: id }));
    const overviewMs = performance.now() - overviewStarted;
    steps.push(['Overview', since()]);

    const exportStarted = performance.now();
    await pinger.phase('export JSONL', () =>
      owner('exportDataset', { dataset_id: id, format: 'jsonl', path: join(dir, 'out.jsonl') }),
    );
    await pinger.stop();
    const exportMs = performance.now() - exportStarted;
    steps.push(['export JSONL written', since()]);
    const rss = peakRss(server.process.pid);

    console.log(
      `\n## end to end: ${rows.toLocaleString('en-US')} GSM8K-like rows (${mib(statSync(file).size)}) ` +
        'through svc serve, times from the drop',
    );
    console.log('| step | at | x plain insert |');
    console.log('| --- | --- | --- |');
    for (const [name, ms] of steps) {
      console.log(`| ${name} | ${(ms / 1000).toFixed(1)} s | ${(ms / insertMs).toFixed(2)}x |`);
    }
    console.log(
      `peers on the same file: plain better-sqlite3 insert ${(insertMs / 1000).toFixed(1)} s; ` +
        (typeof duckMs === 'string'
          ? `DuckDB unavailable (${duckMs})`
          : `DuckDB read_json_auto ${(duckMs / 1000).toFixed(1)} s`),
    );
    console.log(
      `first search once ready ${searchMs.toFixed(0)} ms; Overview ${overviewMs.toFixed(0)} ms; ` +
        `refine ${((refined - refineStarted) / 1000).toFixed(1)} s ` +
        `(${Math.round(rows / ((refined - refineStarted) / 1000))} rows/s); ` +
        `export ${(exportMs / 1000).toFixed(1)} s; server peak RSS ` +
        (rss === undefined ? 'unknown (not Linux)' : mib(rss)),
    );
    console.log(`GET /pricing every 100 ms from the drop to the export written:`);
    pinger.print(50);
  } finally {
    await pinger.stop();
    await stopSvc(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
