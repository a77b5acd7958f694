import { AppError } from '../../../src-shared/errors.ts';
import { importErrorRecords, datasetsIn } from '../../store/datasets.ts';
import type { ServiceContext } from '../context.ts';
import type { OwnerDeps, OwnerHandlers } from '../owner-handlers.ts';
import { promised } from '../promised.ts';
import { decide } from './decide.ts';
import { estimateRun } from './estimate-run.ts';
import { exportDataset } from './export.ts';
import { importDataset } from './import.ts';
import { importPreview } from './preview.ts';
import { removeDataset } from './remove.ts';
import { runRegistry } from './run-registry.ts';
import { cancelRun, listRuns, startRun } from './runs.ts';
import { datasetRow, datasetRows } from './rows.ts';
import { readyDataset, summaryOf } from './summary.ts';

/** The import errors a listing returns at most (the dataset's summary has the full count). */
export const IMPORT_ERRORS_LISTED = 10_000;

type DatasetMethods =
  | 'importPreview'
  | 'importDataset'
  | 'listDatasets'
  | 'deleteDataset'
  | 'datasetRows'
  | 'datasetRow'
  | 'importErrors'
  | 'decide'
  | 'exportDataset'
  | 'estimateRun'
  | 'startRun'
  | 'cancelRun'
  | 'listRuns';

/** The owner methods on datasets and runs. */
export function datasetHandlers(
  ctx: ServiceContext,
  deps: OwnerDeps,
): Pick<OwnerHandlers, DatasetMethods> {
  const { db } = ctx;
  return {
    importPreview: (input) => importPreview(input, deps.uploads),
    importDataset: (input) => importDataset(ctx, deps, input),
    listDatasets: () =>
      promised(() => datasetsIn(db, 'ready').map((record) => summaryOf(db, record))),
    deleteDataset: async ({ dataset_id }) => {
      const dataset = readyDataset(db, dataset_id);
      const run = runRegistry(db).forDataset(dataset.id);
      if (run) {
        throw new AppError(
          'invalid_request',
          `dataset ${dataset.name} has a run in progress (${run.id}): cancel it first`,
        );
      }
      await removeDataset(db, dataset.id);
      return { updated: 1 };
    },
    datasetRows: (input) => promised(() => datasetRows(db, input)),
    datasetRow: (input) => promised(() => datasetRow(db, input)),
    importErrors: ({ dataset_id }) =>
      promised(() => importErrorRecords(db, readyDataset(db, dataset_id).id, IMPORT_ERRORS_LISTED)),
    decide: (input) => promised(() => decide(db, input)),
    exportDataset: (input) => exportDataset(db, deps, input),
    estimateRun: (input) => estimateRun(ctx, input),
    startRun: (input) => promised(() => startRun(ctx, deps, input)),
    cancelRun: ({ run_id }) => cancelRun(ctx, run_id),
    listRuns: ({ dataset_id }) => promised(() => listRuns(ctx, dataset_id)),
  };
}
