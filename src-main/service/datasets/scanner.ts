import { availableParallelism } from 'node:os';
import type { OwnerEvent } from '../../../src-shared/owner-api.ts';
import { datasetRecord } from '../../store/datasets.ts';
import type { Db } from '../../store/db.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { scanDataset } from '../dataset-checks/sqlite.ts';

/**
 * When a dataset's checks run (see `dataset-checks/sqlite.ts` for what a
 * scan does): scans are asked for as an import's first rows are committed
 * on a machine with cores to spare (the scan follows the import, its slices
 * read as the rows come, and ends once the import has), else once it
 * returns, after a run and after decisions (debounced); one
 * runs at a time per dataset, and one asked for meanwhile runs after it.
 */

/**
 * The fewest cores on which an import's scan follows it. The scan's threads
 * then use cores the import leaves idle, and the dataset is ready about when
 * it is stored. On fewer, they take CPU from the import itself (2 cores,
 * 200,000 rows: the import returned after 5.4 s instead of 4.1 s, searches
 * while it ran took a median 423 ms instead of 148 ms) and the dataset is
 * ready no sooner: the work is the same, the cores were already busy.
 */
const FOLLOW_IMPORT_MIN_CORES = 4;

/**
 * Scans in the background, coalescing requests, one dataset at a time: each
 * scan spreads over every core already (dataset-checks/scan-slices.ts), and
 * marking an evaluation set asks every other dataset for a scan at once. Run
 * side by side, those scans shared the cores and a 2-row import waited 42 s
 * for its first scan; now they wait in line, and a dataset never scanned
 * (just imported) goes before the rescans.
 */
export class DatasetScanner {
  /** Whether an import's scan starts with its first rows (see FOLLOW_IMPORT_MIN_CORES). */
  followImports = availableParallelism() >= FOLLOW_IMPORT_MIN_CORES;

  readonly #state = new Map<
    string,
    { running: Promise<void>; again: boolean; followsImport: boolean }
  >();
  /** Datasets whose scan waits for the one running, in the order they start. */
  readonly #waiting: string[] = [];
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** Datasets importing whose scan was asked for with their first rows. */
  readonly #following = new Set<string>();

  readonly #ctx: ServiceContext;
  readonly #emit: (event: OwnerEvent) => void;

  constructor(ctx: ServiceContext, emit: (event: OwnerEvent) => void) {
    this.#ctx = ctx;
    this.#emit = emit;
  }

  /** Whether a scan of the dataset is running or waiting. */
  busy(datasetId: string): boolean {
    return (
      this.#state.has(datasetId) || this.#timers.has(datasetId) || this.#waiting.includes(datasetId)
    );
  }

  /** Asks for a scan, after `delayMs` of quiet (decisions come in bursts). */
  request(datasetId: string, delayMs = 0): void {
    clearTimeout(this.#timers.get(datasetId));
    this.#timers.set(
      datasetId,
      setTimeout(() => {
        this.#timers.delete(datasetId);
        this.start(datasetId);
      }, delayMs),
    );
  }

  /**
   * An import's first rows are committed: its scan starts now and follows
   * the import to its end (`importEvents` tells it).
   */
  importing(datasetId: string): void {
    if (!this.followImports || this.#following.has(datasetId)) return;
    this.#following.add(datasetId);
    this.request(datasetId);
  }

  /** An import returned: its scan is asked for, unless one already follows it. */
  imported(datasetId: string): void {
    if (this.#following.delete(datasetId)) return;
    this.request(datasetId);
  }

  /** `emit` for an import, telling this scanner of the import's first rows. */
  importEvents(emit: (event: OwnerEvent) => void): (event: OwnerEvent) => void {
    return (event) => {
      if (event.type === 'import' && event.rows > 0 && !event.done)
        this.importing(event.dataset_id);
      emit(event);
    };
  }

  /** Resolves once no scan of the dataset is running or waiting (tests, shutdown). */
  async idle(datasetId: string): Promise<void> {
    while (this.busy(datasetId)) {
      const state = this.#state.get(datasetId);
      if (state) await state.running;
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Whether a scan runs that others wait for: any but one following an import (see start). */
  #blockingScanRuns(): boolean {
    return [...this.#state.values()].some((running) => !running.followsImport);
  }

  private start(datasetId: string): void {
    const current = this.#state.get(datasetId);
    if (current) {
      current.again = true;
      return;
    }
    // A scan that follows an import mostly waits for its rows, for as long as the import takes:
    // it holds up no other dataset's scan.
    if (this.#blockingScanRuns()) {
      if (!this.#waiting.includes(datasetId)) {
        // Never scanned (an import's first scan): before the rescans already waiting.
        const fresh =
          this.#ctx.db.open && datasetRecord(this.#ctx.db, datasetId)?.scan_json === null;
        if (fresh) this.#waiting.unshift(datasetId);
        else this.#waiting.push(datasetId);
      }
      return;
    }
    const state = {
      running: Promise.resolve(),
      again: false,
      followsImport:
        this.#ctx.db.open && datasetRecord(this.#ctx.db, datasetId)?.state === 'importing',
    };
    // Read through a function: set meanwhile by another request, which the compiler cannot see.
    const again = (): boolean => state.again;
    this.#state.set(datasetId, state);
    this.#emit({ type: 'scan', dataset_id: datasetId, state: 'running', error: null });
    state.running = (async () => {
      let error: string | null = null;
      do {
        state.again = false;
        try {
          // A dataset deleted meanwhile (or a database closed) is not scanned. One importing
          // is: its scan reads the rows as they are committed (dataset-checks/scan-compute.ts).
          const state = this.#ctx.db.open ? datasetRecord(this.#ctx.db, datasetId)?.state : null;
          if (state !== 'ready' && state !== 'importing') break;
          await scanDataset(this.#ctx, datasetId);
          error = null;
        } catch (failure) {
          console.error(`scan of ${datasetId} failed:`, failure);
          error = (failure as Error).message;
        }
      } while (again());
      this.#state.delete(datasetId);
      this.#emit({
        type: 'scan',
        dataset_id: datasetId,
        state: error === null ? 'done' : 'failed',
        error,
      });
      if (!this.#blockingScanRuns()) {
        const next = this.#waiting.shift();
        if (next !== undefined) this.start(next);
      }
    })();
  }
}

const scanners = new WeakMap<Db, DatasetScanner>();

/** The scanner of a database (shared by every owner handler map over it, as runs are). */
export function datasetScanner(
  ctx: ServiceContext,
  emit: (event: OwnerEvent) => void,
): DatasetScanner {
  let scanner = scanners.get(ctx.db);
  if (!scanner) {
    scanner = new DatasetScanner(ctx, emit);
    scanners.set(ctx.db, scanner);
  }
  return scanner;
}
