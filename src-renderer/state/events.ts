import { subscribeEvents } from '../api/client.ts';
import { useGrid } from './grid.ts';
import { useImport } from './imports.ts';

let lastRefresh = 0;

/** Routes pushed events to the stores: import progress to the import, run progress to the grid. */
export function listenToEvents(): () => void {
  return subscribeEvents((event) => {
    if (event.type === 'import') {
      if (!event.done) {
        useImport.getState().setProgress({
          rows: event.rows,
          errors: event.errors,
          fraction: event.bytes_total > 0 ? event.bytes_read / event.bytes_total : 0,
        });
      }
      return;
    }
    const grid = useGrid.getState();
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
