import { setImmediate as nextTick } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import type { DatasetFinding, DatasetStatistics } from '../../../src-shared/schemas/report.ts';
import { workerScript } from '../../engine/worker-script.ts';
import {
  replaceDuplicateGroups,
  setDatasetChecks,
  setDatasetVerdicts,
  setScan,
  setUnverdictedRowChecks,
  verdictInputs,
  type VerdictInputRecord,
} from '../../store/datasets-scan.ts';
import type { VerdictRecord } from '../../store/datasets-rows.ts';
import { datasetRecord, datasetsIn } from '../../store/datasets.ts';
import type { Db } from '../../store/db.ts';
import { unsynced } from '../../store/commit.ts';
import {
  closeSignatureCache,
  openSignatureCache,
  saveSignatures,
} from '../../store/signature-cache.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { displayedVerdict, verdictColumns } from '../datasets/row-state.ts';
import type { DatasetVerdicts } from './core.ts';
import { computeScan, foundOf, type ScanFound, type ScanInput } from './scan-compute.ts';
import { rowChecksOf, type RowChecks } from './row-checks.ts';
import type { ScanReply, ScanRequest } from './scan-worker.ts';
import { inThread } from './scan-slices.ts';
import { TouchedRows } from './touched-rows.ts';
import { engineWorkers } from '../runs/pool/pooled.ts';

/**
 * The dataset checks of a stored dataset (the app): a scan over every row
 * that is not dropped (its current sample: an accepted fix, else the import)
 * for duplicates, statistics and contamination (the settings' benchmarks and
 * the datasets marked as evaluation sets, this one aside). Each row's
 * dataset-check verdicts join its verdict in force, so the grid's filters,
 * counts and the export's verdict columns see them; the groups, statistics
 * and findings are kept for the Overview.
 *
 * The signatures the scan computed are kept until a row's sample changes
 * (store/signature-cache.ts), so a rescan after a few fixes hashes only
 * those rows. The reading, hashing and keeping run on a worker thread
 * (scan-compute.ts, scan-worker.ts) and the slice workers it shares them
 * with (scan-slices.ts); this thread writes the verdicts a slice at a time:
 * the server goes on answering meanwhile. When a scan runs is the
 * dataset's (see `datasets/scanner.ts`).
 */

/** Rows whose verdicts are read and written at a time. */
const WRITE_CHUNK = 16;
/**
 * How long one transaction of verdict writes goes on before the server is
 * let answer (at most one chunk beyond it). The updates slow as the dataset
 * grows (larger indexes): at 200k rows 64 rows took up to ~15 ms and a turn
 * of 10 ms held the main thread 28 ms; a chunk of 16 rows is a few ms.
 */
const WRITE_SLICE_MS = 5;
/** Rows per slice of a scan on its worker: a slice worker's result is one message of ~1 MB. */
const SLICE_ROWS = 2000;
/** Rows per slice of a scan on the main thread (an in-memory database): each holds it. */
const MAIN_THREAD_SLICE_ROWS = 64;

export interface StoredScan {
  scanned_at: string;
  threshold: number;
  /** What `contamination` looked for (see `contaminationKey`); absent before it existed. */
  contamination?: string;
  rows: number;
  statistics: DatasetStatistics;
  findings: DatasetFinding[];
}

/** A scan's findings, and its rows' checks asked for a block of positions at a time. */
interface ScanSession {
  found: ScanFound;
  checks: (positions: number[]) => Promise<RowChecks[]>;
  /** No more questions: resolves once the scan's thread has ended (see scanDataset). */
  end: () => Promise<void>;
}

/**
 * How long a scan waits for its thread to end before it says it is done
 * anyway: the thread gives its heap back first (0.1-0.3 s at 200k rows), and
 * one that takes longer ends on its own meanwhile.
 */
const SCAN_THREAD_END_MS = 5_000;

/** Scan threads started and not yet ended (tests). */
let scanThreads = 0;
export const runningScanThreads = (): number => scanThreads;

/**
 * Reads and computes a scan (scan-compute.ts) on a worker thread with a
 * read-only connection, so the main thread only writes the verdicts; on the
 * main thread, a slice at a time, for an in-memory database (tests) or when
 * the worker cannot start.
 */
async function computed(db: Db, input: ScanInput): Promise<ScanSession> {
  const onMainThread = async (): Promise<ScanSession> => {
    const cache = openSignatureCache(db);
    const result = await computeScan(
      db,
      { ...input, sliceRows: Math.min(input.sliceRows, MAIN_THREAD_SLICE_ROWS) },
      {
        pause: nextTick,
        signatures: (signatures) => saveSignatures(cache, input.datasetId, signatures),
        runner: (matcher) => inThread(db, matcher),
      },
    ).finally(() => closeSignatureCache(cache));
    return {
      found: foundOf(result),
      checks: (positions) => Promise.resolve(rowChecksOf(result, positions)),
      end: () => Promise.resolve(),
    };
  };
  if (db.memory) return onMainThread();
  const url = workerScript(import.meta.url, 'scan-worker.ts', 'scan-worker.js');
  let worker: Worker;
  try {
    worker = new Worker(url, { name: 'svc-scan', workerData: { file: db.name, input } });
  } catch (error) {
    console.error('dataset scan: no worker, scanning on the main thread:', error);
    return onMainThread();
  }
  scanThreads++;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      scanThreads--;
      resolve();
    });
  });
  const asked = new Map<number, (checks: RowChecks[]) => void>();
  let next = 0;
  let failure: Error | undefined;
  const session = (found: ScanFound): ScanSession => ({
    found,
    checks: (positions) =>
      new Promise((resolve, reject) => {
        if (failure) {
          reject(failure);
          return;
        }
        const id = next++;
        asked.set(id, resolve);
        worker.postMessage({ type: 'checks', id, positions } satisfies ScanRequest);
      }),
    // Asked to end, not terminated: its slice workers may still be starting, and a thread
    // stopped while it loads SQLite's native module aborts the process (see SliceWorkers.close).
    end: () => {
      worker.postMessage({ type: 'end' } satisfies ScanRequest);
      worker.unref();
      return new Promise<void>((resolve) => {
        // Referenced: what awaits the scan keeps the process alive until the thread has ended.
        const timer = setTimeout(resolve, SCAN_THREAD_END_MS);
        void exited.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  });
  return new Promise<ScanSession>((resolve, reject) => {
    let started = false;
    const fail = (error: Error): void => {
      failure ??= error;
      if (!started) reject(error);
      started = true;
      void worker.terminate();
    };
    worker.on('message', (reply: ScanReply) => {
      if (reply.type === 'checks') {
        asked.get(reply.id)?.(reply.checks);
        asked.delete(reply.id);
      } else if (reply.type === 'done') {
        started = true;
        resolve(session(reply.found));
      } else fail(new Error(reply.message));
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!started) fail(new Error(`the scan's worker exited with ${code}`));
    });
  });
}

/** How a scan's reading and hashing are split (see ScanInput). */
export interface ScanSplit {
  /**
   * Threads for the per-row work (the scan's worker and `workers - 1` slice
   * workers): by default the engine's worker count (the setting, else one per core).
   */
  workers?: number;
  /** Rows per slice on the scan's worker. */
  sliceRows?: number;
}

/** Scans a dataset now; resolves when its results are stored. */
export async function scanDataset(
  ctx: ServiceContext,
  datasetId: string,
  split: ScanSplit = {},
): Promise<void> {
  const { db } = ctx;
  const settings = ctx.settings();
  const threshold = settings.dedup.threshold;
  const key = contaminationKey(ctx, datasetId);
  const session = await computed(db, {
    datasetId,
    workers: split.workers ?? engineWorkers(),
    sliceRows: split.sliceRows ?? SLICE_ROWS,
    threshold,
    benchmarks: settings.contamination.benchmarks,
  });
  let ended: Promise<void>;
  try {
    await writeVerdicts(db, datasetId, session);
  } finally {
    ended = session.end();
  }
  const { found } = session;
  const { rowIndex } = found;
  const toRow = (p: number): number => rowIndex[p] as number;
  // Without an fsync too: a scan lost in a power cut is asked for again by the Overview.
  unsynced(db, () => {
    // Deleted while it was scanned: nothing of it is kept.
    if (datasetRecord(db, datasetId)?.state !== 'ready') return;
    replaceDuplicateGroups(
      db,
      datasetId,
      found.duplicateGroups.map((group) => {
        const rows = group.rows.map(toRow);
        return {
          first_row: rows[0] as number,
          kind: group.kind,
          similarity: group.similarity,
          label_conflict: group.label_conflict ? 1 : 0,
          size: rows.length,
          rows_json: JSON.stringify(rows),
        };
      }),
    );
    const stored: StoredScan = {
      scanned_at: new Date().toISOString(),
      threshold,
      contamination: key,
      rows: rowIndex.length,
      statistics: found.statistics,
      findings: found.findings.map((finding) => findingOfRows(finding, toRow)),
    };
    setScan(db, datasetId, JSON.stringify(stored));
  });
  // Done once the scan's thread has ended too. It gives its heap back as it ends (a last-resort
  // collection, engine/release-heap.ts), and that slowed what ran beside it: the first search
  // right after a 200k dataset was ready took 64-198 ms, 30-59 ms without the release (and a
  // second after, 25-34 ms either way). Now that falls before "ready", not after it.
  await ended;
}

/**
 * A finding as the dataset's rows name it: the scan counts positions among
 * the rows it read (dropped rows left out), and a finding's examples
 * (`templated_rows`) point at two of them, as the duplicate groups do. Its
 * message already names the rows by their numbers.
 */
function findingOfRows(finding: DatasetFinding, toRow: (p: number) => number): DatasetFinding {
  const { examples } = finding as { examples?: unknown };
  if (!Array.isArray(examples)) return finding;
  return {
    ...finding,
    examples: (examples as { rows: number[] }[]).map((example) => ({
      ...example,
      rows: example.rows.map(toRow),
    })),
  };
}

/**
 * Touched rows whose checks are asked for at a time (one message
 * each way): a reply of 2,048 rows' issues took the main thread ~35 ms to read.
 */
const CHECKS_BLOCK = 256;

/**
 * Blocks in a row whose rows were mostly audited (or unchanged) that write
 * the rest the way of such rows, with no try of the write of a never-audited
 * row first (see writeVerdicts); the next block tries it again.
 */
const SKIP_BLOCKS = 16;

/**
 * Writes each touched row's dataset-check verdicts and the verdict in force
 * it changes: rows with issues now and rows that had some.
 */
async function writeVerdicts(db: Db, datasetId: string, session: ScanSession): Promise<void> {
  const { found } = session;
  const { rowIndex } = found;
  // Positions become dataset rows: in the checks' refs (made by the scan's thread) and in the
  // groups. Checks are made per block as its verdicts are written, never held for all rows at
  // once (at 200k duplicates that alone would outgrow a small heap).
  const toRow = (p: number): number => rowIndex[p] as number;
  // Merged a block at a time, as the writes go (touched-rows.ts): never a pass over every row.
  const touched = new TouchedRows(found.withIssues, rowIndex, found.hadChecks);
  /** Of the rows written the way of rows with no verdict: those it wrote, those it did not. */
  const tried = { wrote: 0, missed: 0 };
  const writeChecks = (
    rows: readonly number[],
    checksOf: Map<number, RowChecks>,
    tryUnverdicted: boolean,
  ): void => {
    // A row holding no verdict whose checks failed nothing (a fresh import's rows, each holding
    // a benchmark item, say) keeps its verdict columns: its checks are written with no read of
    // the row (setUnverdictedRowChecks). 200,000 GSM8K-like rows: the writes took the server's
    // thread 1.8 s of CPU with a read of each row first.
    const read: number[] = [];
    for (const row of rows) {
      const checks = checksOf.get(row);
      if (tryUnverdicted && checks?.[2] === true) {
        if (setUnverdictedRowChecks(db, datasetId, row, checks[1])) {
          tried.wrote++;
          continue;
        }
        tried.missed++;
      }
      read.push(row);
    }
    const changed = [];
    const checksOnly = [];
    for (const row of verdictInputs(db, datasetId, read)) {
      const checksJson = checksOf.get(row.row_index)?.[1] ?? null;
      const checks = JSON.parse(checksJson ?? 'null') as DatasetVerdicts | null;
      const audit = JSON.parse(row.audit_json ?? 'null') as AuditBlock | null;
      const reaudit = JSON.parse(row.reaudit_json ?? 'null') as AuditBlock | null;
      const next = {
        row_index: row.row_index,
        checks_json: checksJson,
        ...verdictColumns(displayedVerdict(audit, reaudit, row.decision, checks)),
      };
      // A rescan finds most rows as it left them: those need no write. (The columns are compared
      // too: a run that wrote a row between two scans may have folded in the verdict it found then.)
      // A row whose verdict columns stay has its dataset-check verdicts written alone, the cheap
      // write (setDatasetChecks).
      if (!sameColumns(row, next)) changed.push(next);
      else if (row.checks_json !== next.checks_json) checksOnly.push(next);
    }
    setDatasetVerdicts(db, datasetId, changed);
    setDatasetChecks(db, datasetId, checksOnly);
  };
  // Verdicts are written a slice at a time, each its own transaction, and the server answers
  // between slices: at 200k duplicate rows one transaction held the main thread for 13 s (every
  // request waited, some were dropped). Each row is read and written in the same slice (or
  // written only as it stands, setUnverdictedRowChecks), so a decision or a run landing between
  // slices is not overwritten; after a crash midway the next scan writes the rows left (it
  // compares each touched row's stored verdict). Derived data: the slices commit without an
  // fsync; the next fsync'd commit makes them durable.
  // The next block's checks are asked for before this one's are written, so the scan's thread
  // makes them meanwhile: waiting for each in turn was a quarter of the writes' time (200,000
  // GSM8K-like rows: 0.8 s of 3.5 s).
  const ask = (block: ReturnType<TouchedRows['next']>): Promise<RowChecks[]> => {
    const asked = session.checks(block.withIssues);
    // Awaited below, where a failure is thrown; one left behind by an earlier throw is moot.
    asked.catch(() => undefined);
    return asked;
  };
  let block = touched.next(CHECKS_BLOCK);
  let asking = block.rows.length > 0 ? ask(block) : Promise.resolve([]);
  // A rescan of audited rows (or of rows left as they were) would try each row's write in
  // vain before reading it: after a block that mostly missed, blocks skip the try a while.
  let skip = 0;
  while (block.rows.length > 0) {
    const { rows } = block;
    const asked = await asking;
    block = touched.next(CHECKS_BLOCK);
    if (block.rows.length > 0) asking = ask(block);
    const checksOf = new Map(asked.map((entry) => [toRow(entry[0]), entry]));
    const tryUnverdicted = skip === 0;
    if (skip > 0) skip--;
    tried.wrote = 0;
    tried.missed = 0;
    for (let start = 0; start < rows.length;) {
      const deadline = performance.now() + WRITE_SLICE_MS;
      unsynced(db, () => {
        do {
          const chunk = rows.slice(start, start + WRITE_CHUNK);
          start += chunk.length;
          writeChecks(chunk, checksOf, tryUnverdicted);
        } while (start < rows.length && performance.now() < deadline);
      });
      await nextTick();
    }
    if (tried.missed > tried.wrote) skip = SKIP_BLOCKS;
  }
}

/** Whether a row's stored verdict columns are those computed (its dataset-check verdicts aside). */
function sameColumns(
  stored: VerdictInputRecord,
  next: VerdictRecord & { checks_json: string | null },
): boolean {
  return (Object.keys(next) as (keyof typeof next)[]).every(
    (key) => key === 'checks_json' || stored[key] === next[key],
  );
}

/**
 * What a scan of the dataset would look for: the benchmarks chosen and the
 * evaluation sets (other datasets marked so). A stored scan made for another
 * is out of date.
 */
export function contaminationKey(ctx: ServiceContext, datasetId: string): string {
  const evalSets = datasetsIn(ctx.db, 'ready')
    .filter((d) => d.eval_set === 1 && d.id !== datasetId)
    .map((d) => d.id)
    .sort();
  return JSON.stringify([ctx.settings().contamination.benchmarks, evalSets]);
}

/** Whether a stored scan was made under the settings and evaluation sets in force. */
export function scanFits(scan: StoredScan | null, ctx: ServiceContext, datasetId: string): boolean {
  return (
    scan !== null &&
    scan.threshold === ctx.settings().dedup.threshold &&
    scan.contamination === contaminationKey(ctx, datasetId)
  );
}
