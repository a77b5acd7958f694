import type { Db } from '../../store/db.ts';
import { datasetsIn } from '../../store/datasets.ts';
import { finishRun, runningRuns } from '../../store/datasets-runs.ts';
import { removeDataset } from './remove.ts';

const recovered = new WeakSet<Db>();

/**
 * The start-up pass over what a crash (or a quit) may have left: runs still
 * marked running become `failed` (the rows they finished keep their results),
 * and datasets whose import or deletion never finished are removed, in the
 * background. Runs once per database per process; like the ledger's start-up
 * pass, it assumes one app per data directory.
 */
export function recoverDatasets(db: Db, now: Date = new Date()): void {
  if (recovered.has(db)) return;
  recovered.add(db);
  for (const run of runningRuns(db)) {
    finishRun(db, run.id, {
      status: 'failed',
      error:
        'interrupted: the app stopped before the run finished; the rows it finished keep their results',
      finished_at: now.toISOString(),
    });
  }
  const leftovers = [...datasetsIn(db, 'importing'), ...datasetsIn(db, 'deleting')];
  void (async () => {
    for (const dataset of leftovers) await removeDataset(db, dataset.id);
  })().catch((error: unknown) => console.error('removing unfinished datasets failed:', error));
}
