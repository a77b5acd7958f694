import { create } from 'zustand';
import type { OwnerEvent } from '../../src-shared/owner-api.ts';

/**
 * How far each dataset's search index is built (from `index` events), so the
 * grid says "indexing… N%" while searches are answered partly by scanning;
 * a dataset whose index is complete has no entry.
 */
interface IndexingState {
  /** Percent of the dataset's rows indexed, by dataset id. */
  percent: Record<string, number>;
  indexed: (event: Extract<OwnerEvent, { type: 'index' }>) => void;
}

/** The percent shown: whole numbers, 100 only once the index is complete. */
export function indexedPercent(indexed: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(99, Math.floor((indexed / total) * 100));
}

export const useIndexing = create<IndexingState>()((set) => ({
  percent: {},
  indexed: (event) =>
    set((s) => {
      const others = Object.entries(s.percent).filter(([id]) => id !== event.dataset_id);
      if (!event.done) others.push([event.dataset_id, indexedPercent(event.indexed, event.total)]);
      return { percent: Object.fromEntries(others) };
    }),
}));
