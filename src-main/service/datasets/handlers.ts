import { AppError } from '../../../src-shared/errors.ts';
import { importErrorRecords, datasetsIn, setEvalSet } from '../../store/datasets.ts';
import type { ServiceContext } from '../context/service-context.ts';
import type { OwnerDeps, OwnerHandlers } from '../owner/handler-types.ts';
import { promised } from '../owner/promised.ts';
import { decide } from './decide.ts';
import { editRow } from './edit.ts';
import { keepBoth } from './keep-both.ts';
import { estimateRun } from './estimate-run.ts';
import { exportDataset } from './export-dataset.ts';
import { importRegistry } from './import-registry.ts';
import { importDataset } from './import.ts';
import { importPreview } from './preview.ts';
import { removeDataset } from './remove.ts';
import { runRegistry } from './run-registry.ts';
import { cancelRun, listRuns, startRun } from './runs.ts';
import { datasetOverview, duplicateGroups } from './overview.ts';
import { gridQueries, tellIndexProgress } from './grid-queries.ts';
import { rowDetail } from './row-detail.ts';
import { scanFits, type StoredScan } from '../dataset-checks/sqlite.ts';
import { datasetScanner } from './scanner.ts';
import { readyDataset, summaryOf } from './summary.ts';

/** The import errors a listing returns at most (the dataset's summary has the full count). */
export const IMPORT_ERRORS_LISTED = 10_000;

type DatasetMethods =
  | 'importPreview'
  | 'importDataset'
  | 'listDatasets'
  | 'deleteDataset'
  | 'setEvalSet'
  | 'datasetRows'
  | 'datasetRow'
  | 'importErrors'
  | 'decide'
  | 'keepBoth'
  | 'editRow'
  | 'exportColumns'
  | 'exportDataset'
  | 'estimateRun'
  | 'startRun'
  | 'cancelRun'
  | 'listRuns'
  | 'datasetOverview'
  | 'duplicateGroups';

/** Decisions come in bursts (a key held down): the rescan waits for this much quiet. */
export const DECISION_SCAN_DELAY_MS = 1500;

/** The owner methods on datasets and runs. */
export function datasetHandlers(
  ctx: ServiceContext,
  deps: OwnerDeps,
): Pick<OwnerHandlers, DatasetMethods> {
  const { db } = ctx;
  const scanner = datasetScanner(ctx, deps.emit);
  tellIndexProgress(db, deps.emit);
  return {
    importPreview: (input) => importPreview(input, deps.uploads),
    importDataset: async (input) => {
      const emit = scanner.importEvents(deps.emit);
      const dataset = await importDataset(ctx, { ...deps, emit }, input);
      scanner.imported(dataset.id);
      return dataset;
    },
    listDatasets: () =>
      promised(() => datasetsIn(db, 'importing', 'ready').map((record) => summaryOf(db, record))),
    deleteDataset: async ({ dataset_id }) => {
      // Still importing: the import stops, removes what it had stored, then the delete answers.
      const importing = importRegistry(db).get(dataset_id);
      if (importing) {
        importing.controller.abort();
        await importing.ended;
        return { updated: 1 };
      }
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
    setEvalSet: ({ dataset_id, eval_set }) =>
      promised(() => {
        const dataset = readyDataset(db, dataset_id);
        if ((dataset.eval_set === 1) !== eval_set) {
          setEvalSet(db, dataset.id, eval_set);
          // Every other dataset's contamination check looks for this one's rows now (or no more).
          for (const other of datasetsIn(db, 'ready')) {
            if (other.id !== dataset.id) scanner.request(other.id);
          }
        }
        return summaryOf(db, readyDataset(db, dataset.id));
      }),
    datasetRows: (input) => gridQueries(db).rows(input),
    datasetRow: (input) => rowDetail(db, input),
    importErrors: ({ dataset_id }) =>
      promised(() => importErrorRecords(db, readyDataset(db, dataset_id).id, IMPORT_ERRORS_LISTED)),
    decide: async (input) => {
      const result = await decide(db, input);
      if (result.updated > 0) scanner.request(input.dataset_id, DECISION_SCAN_DELAY_MS, true);
      return result;
    },
    keepBoth: (input) =>
      promised(() => {
        const result = keepBoth(db, input);
        // At once: the reviewer waits to see the pair leave the duplicates.
        scanner.request(input.dataset_id, 0, true);
        return result;
      }),
    editRow: async (input) => {
      const detail = await editRow(ctx, deps.backend(), input);
      scanner.request(input.dataset_id, DECISION_SCAN_DELAY_MS, true);
      return detail;
    },
    datasetOverview: ({ dataset_id }) =>
      promised(() => {
        const dataset = readyDataset(db, dataset_id);
        // A scan made under another threshold, or none yet: one is asked for.
        const scan =
          dataset.scan_json === null ? null : (JSON.parse(dataset.scan_json) as StoredScan);
        if (!scanner.busy(dataset.id) && !scanFits(scan, ctx, dataset.id)) {
          scanner.request(dataset.id);
        }
        return datasetOverview(db, dataset.id, scanner.busy(dataset.id));
      }),
    duplicateGroups: (input) => promised(() => duplicateGroups(db, input)),
    exportColumns: ({ dataset_id }) => gridQueries(db).columns(dataset_id),
    exportDataset: (input) => exportDataset(db, deps, input),
    estimateRun: (input) => estimateRun(ctx, input, deps.backend()),
    startRun: (input) => startRun(ctx, deps, input),
    cancelRun: ({ run_id }) => cancelRun(ctx, run_id),
    listRuns: ({ dataset_id }) => promised(() => listRuns(ctx, dataset_id)),
  };
}
