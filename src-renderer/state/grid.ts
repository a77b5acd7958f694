import { create } from 'zustand';
import type { DatasetSummary, GridRow, RowFilter } from '../../src-shared/owner/datasets.ts';
import type { RunStatus } from '../../src-shared/owner/runs.ts';
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
  /** Bumped whenever cached pages become stale (filter, sort, a run wrote rows). */
  generation: number;
  pages: Map<number, GridRow[]>;
  /**
   * Pages shown while their fresh copy is on its way (after a refresh: the
   * same view, rows changed), so the grid never blinks to "loading…" under
   * the pointer.
   */
  stale: Set<number>;
  selection: Set<number>;
  detailIndex: number | null;
  run: RunStatus | null;
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
  refresh: () => void;
  toggleSelected: (index: number) => void;
  clearSelection: () => void;
  showDetail: (index: number | null) => void;
  setRun: (run: RunStatus | null) => void;
}

const inFlight = new Set<string>();

/** No page loaded: a new view (another dataset, filter or sort) starts from nothing. */
const noPages = () => ({ pages: new Map<number, GridRow[]>(), stale: new Set<number>() });

export const useGrid = create<GridState>()((set, get) => ({
  datasets: [],
  datasetId: null,
  filter: {},
  sort: { column: 'index', direction: 'asc' },
  total: 0,
  generation: 0,
  pages: new Map(),
  stale: new Set(),
  selection: new Set(),
  detailIndex: null,
  run: null,
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
      total: 0,
      ...noPages(),
      selection: new Set(),
      detailIndex: null,
      run: null,
      view: 'rows',
      generation: s.generation + 1,
    }));
    if (!id) return;
    void get().ensurePages(0, 0);
    // A run of this dataset may be going on (started before a reload) or just have ended.
    api.listRuns({ dataset_id: id }).then(
      (runs) => {
        const [latest] = runs;
        if (latest && get().datasetId === id) set((s) => ({ run: newerRun(s.run, latest) }));
      },
      // Only the last run's status is missing then; the grid itself does not depend on it.
      (error: unknown) => console.error('could not read the runs of the dataset:', error),
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
    set((s) => ({ stale: new Set(s.pages.keys()), generation: s.generation + 1 }));
    void get().ensurePages(0, 0);
    void get().loadDatasets();
  },
  ensurePages: async (first, last) => {
    const { datasetId } = get();
    if (!datasetId) return;
    const firstPage = Math.floor(first / PAGE_SIZE);
    const lastPage = Math.floor(last / PAGE_SIZE);
    for (let page = firstPage; page <= lastPage; page++) {
      const { pages, stale, generation, filter, sort } = get();
      const key = `${datasetId}:${generation}:${page}`;
      if ((pages.has(page) && !stale.has(page)) || inFlight.has(key)) continue;
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
        next.delete(page); // re-inserted: the most recently used page goes last
        next.set(page, result.rows);
        const fresh = new Set(get().stale);
        fresh.delete(page);
        while (next.size > MAX_PAGES) {
          const oldest = next.keys().next().value;
          if (oldest === undefined) break;
          next.delete(oldest);
        }
        set({ pages: next, stale: fresh, total: result.total });
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
  showDetail: (index) => set({ detailIndex: index }),
  setRun: (run) => set((s) => ({ run: newerRun(s.run, run) })),
}));

/** The grid row at a position in the current filtered, sorted view (undefined while loading). */
export function rowAt(pages: Map<number, GridRow[]>, position: number): GridRow | undefined {
  return pages.get(Math.floor(position / PAGE_SIZE))?.[position % PAGE_SIZE];
}
