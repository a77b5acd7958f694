import { subscribeEvents } from '../api/client.ts';
import { PAGE_SIZE, useGrid } from './grid.ts';
import { useImport } from './imports.ts';
import { useIndexing } from './indexing.ts';

let lastRefresh = 0;
let lastImportRefresh = 0;
/** A dataset still importing grows in the grid: its rows are read again at most once a second. */
const IMPORT_REFRESH_MS = 1000;

/**
 * Routes pushed events to the stores: import progress to the import, run
 * progress to the grid, the search index's progress to the grid's search line.
 */
export function listenToEvents(): () => void {
  return subscribeEvents((event) => {
    const grid = useGrid.getState();
    if (event.type === 'import') {
      useImport.getState().imported(event);
      if (event.dataset_id !== grid.datasetId) return;
      const now = Date.now();
      // The grid's first page fills at once; after that the rows and counts catch up each second.
      if (event.done || grid.total < PAGE_SIZE || now - lastImportRefresh > IMPORT_REFRESH_MS) {
        lastImportRefresh = now;
        grid.refresh();
      }
      return;
    }
    if (event.type === 'index') {
      useIndexing.getState().indexed(event);
      return;
    }
    if (event.type === 'scan') {
      // A finished scan changes verdicts (duplicates) and the Overview.
      if (event.dataset_id === grid.datasetId && event.state !== 'running') grid.scanned();
      return;
    }
    if (event.run.dataset_id !== grid.datasetId) return;
    grid.setRun(event.run);
    // Results land in the grid as batches finish; refresh at most twice a second.
    const now = Date.now();
    if (event.run.status !== 'running' || now - lastRefresh > 500) {
      lastRefresh = now;
      grid.refresh();
    }
  });
}
