import { create } from 'zustand';
import type { DatasetSummary, GridRow, RowFilter } from '../../src-shared/owner/datasets.ts';
import type { RunStatus } from '../../src-shared/owner/runs.ts';
import { setMostRecent } from '../../src-shared/recent-map.ts';
import { api } from '../api/client.ts';
import { sameFilter } from './same-filter.ts';
import { newerRun } from './run-merge.ts';

/**
 * The dataset grid's state. Rows are never all in memory: pages of PAGE_SIZE
 * are fetched from main as the grid scrolls, and at most MAX_PAGES are kept
 * (the least recently used go), so a million-row dataset costs the renderer a
 * few thousand rows at any time.
 */
export const PAGE_SIZE = 200;
const MAX_PAGES = 12;

export type SortState = {
  column: 'index' | 'task_type' | 'score' | 'status';
  direction: 'asc' | 'desc';
};

interface GridState {
  datasets: DatasetSummary[];
  datasetId: string | null;
  filter: RowFilter;
  sort: SortState;
  total: number;
  /** Bumped whenever cached pages are replaced (filter, sort, a refresh that landed). */
  generation: number;
  pages: Map<number, GridRow[]>;
  selection: Set<number>;
  detailIndex: number | null;
  run: RunStatus | null;
  /**
   * Whether the open dataset's runs have been read: until then `run` is not known to be none
   * (the run panel holds the status line's room, so nothing below it moves when it arrives).
   */
  runsRead: boolean;
  /** The open dataset shown as its rows or as its Overview. */
  view: 'rows' | 'overview';
  /** Bumped when a dataset scan has finished: the Overview reads itself again. */
  scanGeneration: number;
  setView: (view: 'rows' | 'overview') => void;
  /** Shows the rows a filter selects (from the Overview: a click on a bar). */
  showRows: (filter: RowFilter, detail?: number | null) => void;
  scanned: () => void;
  /** The index of the row `delta` places from `index` in the view (undefined: not loaded, or none). */
  nextIndex: (index: number, delta: number) => number | undefined;
  loadDatasets: () => Promise<void>;
  openDataset: (id: string | null) => void;
  setFilter: (filter: RowFilter) => void;
  setSort: (sort: SortState) => void;
  ensurePages: (first: number, last: number) => Promise<void>;
  /**
   * Reads the dataset list and the grid's shown rows again (a run, a
   * decision or a scan changed them), and shows both at once.
   */
  refresh: () => void;
  toggleSelected: (index: number) => void;
  clearSelection: () => void;
  showDetail: (index: number | null) => void;
  setRun: (run: RunStatus | null) => void;
}

const inFlight = new Set<string>();

/** No page loaded: a new view (another dataset, filter or sort) starts from nothing. */
const noPages = () => ({ pages: new Map<number, GridRow[]>() });

/** The positions the grid last asked for: what a refresh reads again. */
let shown = { first: 0, last: 0 };
/** Refreshes asked for so far: only the latest one reads again when another landed first. */
let refreshes = 0;
/** Asked before the review leaves its row: false keeps the row (an edit not saved). */
let leaveGuard: (() => boolean) | null = null;

/**
 * While an edit is open in the review, `showDetail` asks `guard` before it
 * opens another row or closes the review; returns what removes the guard.
 */
export function guardLeavingRow(guard: () => boolean): () => void {
  leaveGuard = guard;
  return () => {
    if (leaveGuard === guard) leaveGuard = null;
  };
}

/** The pages of the positions from `first` to `last` in one view, with the view's row count. */
async function readPages(
  query: { datasetId: string; filter: RowFilter; sort: SortState },
  first: number,
  last: number,
): Promise<{ pages: Map<number, GridRow[]>; total: number }> {
  const numbers: number[] = [];
  for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(last / PAGE_SIZE); page++) {
    numbers.push(page);
  }
  const results = await Promise.all(
    numbers.map((page) =>
      api.datasetRows({
        dataset_id: query.datasetId,
        offset: page * PAGE_SIZE,
        limit: PAGE_SIZE,
        filter: query.filter,
        sort: query.sort,
      }),
    ),
  );
  return {
    pages: new Map(numbers.map((page, i) => [page, results[i]?.rows ?? []])),
    total: results.at(-1)?.total ?? 0,
  };
}

export const useGrid = create<GridState>()((set, get) => ({
  datasets: [],
  datasetId: null,
  filter: {},
  sort: { column: 'index', direction: 'asc' },
  total: 0,
  generation: 0,
  pages: new Map(),
  selection: new Set(),
  detailIndex: null,
  run: null,
  runsRead: false,
  view: 'rows',
  scanGeneration: 0,

  setView: (view) => set({ view }),
  showRows: (filter, detail = null) => {
    set((s) => ({
      view: 'rows',
      filter,
      ...noPages(),
      detailIndex: detail,
      generation: s.generation + 1,
    }));
    void get().ensurePages(0, 0);
  },
  scanned: () => {
    set((s) => ({ scanGeneration: s.scanGeneration + 1 }));
    get().refresh();
  },
  nextIndex: (index, delta) => {
    for (const [page, rows] of get().pages) {
      const at = rows.findIndex((row) => row.index === index);
      if (at >= 0) return rowAt(get().pages, page * PAGE_SIZE + at + delta)?.index;
    }
    return undefined;
  },

  loadDatasets: async () => {
    const datasets = await api.listDatasets({});
    set({ datasets });
  },
  openDataset: (id) => {
    set((s) => ({
      datasetId: id,
      filter: {},
      // Until its first page is read, the grid counts the rows the list gives the dataset (no
      // filter yet): 0 showed "0 rows" and "No rows match." over a dataset just imported.
      total: s.datasets.find((dataset) => dataset.id === id)?.rows ?? 0,
      ...noPages(),
      selection: new Set(),
      detailIndex: null,
      run: null,
      runsRead: false,
      view: 'rows',
      generation: s.generation + 1,
    }));
    if (!id) return;
    void get().ensurePages(0, 0);
    // A run of this dataset may be going on (started before a reload) or just have ended.
    api.listRuns({ dataset_id: id }).then(
      (runs) => {
        const [latest] = runs;
        if (get().datasetId !== id) return;
        set((s) => ({ run: latest ? newerRun(s.run, latest) : s.run, runsRead: true }));
      },
      // Only the last run's status is missing then; the grid itself does not depend on it.
      (error: unknown) => {
        console.error('could not read the runs of the dataset:', error);
        if (get().datasetId === id) set({ runsRead: true });
      },
    );
  },
  setFilter: (filter) => {
    // The same filter again (a search box settling on what is shown) sends no query.
    if (sameFilter(filter, get().filter)) return;
    // The selection is of row indices, not positions: it survives a change of filter. The row
    // under review may not match the new filter: the review closes.
    set((s) => ({
      filter,
      ...noPages(),
      detailIndex: null,
      generation: s.generation + 1,
    }));
    void get().ensurePages(0, 0);
  },
  setSort: (sort) => {
    set((s) => ({ sort, ...noPages(), generation: s.generation + 1 }));
    void get().ensurePages(0, 0);
  },
  refresh: () => {
    // The list and the rows are read together and land in one update: the list showed a
    // rescan's counts ("2 rows dropped") while the grid still showed the rows before it. Until
    // then the rows shown stay, so the grid never blinks to "loading…" under the pointer.
    const ticket = ++refreshes;
    const { datasetId, generation, filter, sort } = get();
    const { first, last } = shown;
    Promise.all([
      api.listDatasets({}),
      datasetId ? readPages({ datasetId, filter, sort }, first, last) : null,
    ]).then(
      ([datasets, read]) => {
        if (get().generation !== generation) {
          // Another view or refresh landed meanwhile; the latest refresh reads again.
          if (ticket === refreshes) get().refresh();
          return;
        }
        set((s) => ({
          datasets,
          ...(read ? { pages: read.pages, total: read.total } : {}),
          generation: s.generation + 1,
        }));
      },
      (error: unknown) => console.error('could not read the datasets again:', error),
    );
  },
  ensurePages: async (first, last) => {
    const { datasetId } = get();
    if (!datasetId) return;
    shown = { first, last };
    const firstPage = Math.floor(first / PAGE_SIZE);
    const lastPage = Math.floor(last / PAGE_SIZE);
    for (let page = firstPage; page <= lastPage; page++) {
      const { pages, generation, filter, sort } = get();
      const key = `${datasetId}:${generation}:${page}`;
      if (pages.has(page) || inFlight.has(key)) continue;
      inFlight.add(key);
      try {
        const result = await api.datasetRows({
          dataset_id: datasetId,
          offset: page * PAGE_SIZE,
          limit: PAGE_SIZE,
          filter,
          sort,
        });
        if (get().generation !== generation || get().datasetId !== datasetId) continue;
        const next = new Map(get().pages);
        setMostRecent(next, page, result.rows, MAX_PAGES);
        set({ pages: next, total: result.total });
      } finally {
        inFlight.delete(key);
      }
    }
  },
  toggleSelected: (index) => {
    const selection = new Set(get().selection);
    if (selection.has(index)) selection.delete(index);
    else selection.add(index);
    set({ selection });
  },
  clearSelection: () => set({ selection: new Set() }),
  showDetail: (index) => {
    if (index !== get().detailIndex && leaveGuard && !leaveGuard()) return;
    set({ detailIndex: index });
  },
  setRun: (run) => set((s) => ({ run: newerRun(s.run, run) })),
}));

/** The grid row at a position in the current filtered, sorted view (undefined while loading). */
export function rowAt(pages: Map<number, GridRow[]>, position: number): GridRow | undefined {
  return pages.get(Math.floor(position / PAGE_SIZE))?.[position % PAGE_SIZE];
}
