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
 * Datasets of at most this many rows scan in a lane of their own. Their scans
 * take a second or so; behind a large dataset's (200,000 templated rows: tens
 * of seconds on 2 cores) a reviewer who dropped a copy in a 60-row set waited
 * for the large one to end before the copy left the duplicates.
 */
export const SMALL_SCAN_ROWS = 10_000;

type Lane = 'small' | 'large';

/**
 * Who waits for a scan, first first: a person who just decided on a row of the
 * dataset, a dataset never scanned (just imported), a rescan (an evaluation set
 * marked, a run ended).
 */
const URGENT = 0;
const FRESH = 1;
const RESCAN = 2;

/**
 * Scans in the background, coalescing requests, one dataset at a time in each
 * lane (small and large datasets): each scan spreads over every core already
 * (dataset-checks/scan-slices.ts), and marking an evaluation set asks every
 * other dataset for a scan at once. Run side by side, those scans shared the
 * cores and a 2-row import waited 42 s for its first scan; now they wait in
 * line, in the order of who waits for them.
 */
export class DatasetScanner {
  /** Whether an import's scan starts with its first rows (see FOLLOW_IMPORT_MIN_CORES). */
  followImports = availableParallelism() >= FOLLOW_IMPORT_MIN_CORES;
  /** The most rows of a dataset scanned in the small lane (tests lower it). */
  smallRows = SMALL_SCAN_ROWS;

  readonly #state = new Map<
    string,
    { running: Promise<void>; again: boolean; followsImport: boolean; lane: Lane }
  >();
  /** Datasets whose scan waits for its lane, in the order they start, with their priority. */
  readonly #waiting: Record<Lane, { datasetId: string; priority: number }[]> = {
    small: [],
    large: [],
  };
  readonly #timers = new Map<string, { timer: NodeJS.Timeout; urgent: boolean }>();
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
      this.#state.has(datasetId) ||
      this.#timers.has(datasetId) ||
      this.#waitingAt(datasetId) !== undefined
    );
  }

  /**
   * Asks for a scan, after `delayMs` of quiet (decisions come in bursts);
   * `urgent`: a person waits for it (a decision on one of its rows), so it
   * goes before the other scans waiting in its lane.
   */
  request(datasetId: string, delayMs = 0, urgent = false): void {
    const pending = this.#timers.get(datasetId);
    clearTimeout(pending?.timer);
    // A request replacing an urgent one pending is urgent still: the person still waits.
    const stillUrgent = urgent || pending?.urgent === true;
    const timer = setTimeout(() => {
      this.#timers.delete(datasetId);
      this.start(datasetId, stillUrgent);
    }, delayMs);
    this.#timers.set(datasetId, { timer, urgent: stillUrgent });
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

  /** The lane a dataset's scan waits in and the place it holds there, if it waits. */
  #waitingAt(datasetId: string): { lane: Lane; at: number } | undefined {
    for (const lane of ['small', 'large'] as const) {
      const at = this.#waiting[lane].findIndex((waiting) => waiting.datasetId === datasetId);
      if (at >= 0) return { lane, at };
    }
    return undefined;
  }

  /** Whether a scan runs in the lane that others wait for: any but one following an import. */
  #laneBusy(lane: Lane): boolean {
    return [...this.#state.values()].some(
      (running) => running.lane === lane && !running.followsImport,
    );
  }

  /** Waits in `lane` behind every scan of the same priority or a more urgent one. */
  #wait(lane: Lane, datasetId: string, priority: number): void {
    const waiting = this.#waitingAt(datasetId);
    if (waiting) {
      const held = this.#waiting[waiting.lane][waiting.at];
      if (held === undefined || held.priority <= priority) return;
      // Asked for again by someone who waits for it more: it moves up.
      this.#waiting[waiting.lane].splice(waiting.at, 1);
    }
    const line = this.#waiting[lane];
    const after = line.findIndex((other) => other.priority > priority);
    line.splice(after < 0 ? line.length : after, 0, { datasetId, priority });
  }

  private start(datasetId: string, urgent = false): void {
    const current = this.#state.get(datasetId);
    if (current) {
      current.again = true;
      return;
    }
    const record = this.#ctx.db.open ? datasetRecord(this.#ctx.db, datasetId) : undefined;
    const lane: Lane = (record?.row_count ?? 0) <= this.smallRows ? 'small' : 'large';
    // A scan that follows an import mostly waits for its rows, for as long as the import takes:
    // it holds up no other dataset's scan.
    if (this.#laneBusy(lane)) {
      const fresh = record?.scan_json === null;
      this.#wait(lane, datasetId, urgent ? URGENT : fresh ? FRESH : RESCAN);
      return;
    }
    // It may have waited in the other lane (its rows counted before an import grew them).
    const waited = this.#waitingAt(datasetId);
    if (waited) this.#waiting[waited.lane].splice(waited.at, 1);
    const state = {
      running: Promise.resolve(),
      again: false,
      followsImport: record?.state === 'importing',
      lane,
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
      // A dataset that waited may start in the other lane now (an import grew it past
      // smallRows): the lane goes on to its next until one runs.
      for (const lane of ['small', 'large'] as const) {
        while (!this.#laneBusy(lane)) {
          const next = this.#waiting[lane].shift();
          if (next === undefined) break;
          this.start(next.datasetId, next.priority === URGENT);
        }
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
