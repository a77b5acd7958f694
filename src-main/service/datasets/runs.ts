import { AppError } from '../../../src-shared/errors.ts';
import type { RunStatus } from '../../../src-shared/owner/runs.ts';
import { insertRun, runRecord, runRecords } from '../../store/datasets-runs.ts';
import { datasetRecord, type DatasetRecord } from '../../store/datasets.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { newId } from './ids.ts';
import { executeRun, type RunLoopDeps } from './run-loop.ts';
import { runRegistry, type ActiveRun } from './run-registry.ts';
import type { ParsedRunRequest } from './run-request.ts';
import { statusOfRecord } from './run-status.ts';
import { datasetScanner } from './scanner.ts';
import { resolveScope } from './run-scope.ts';
import { scopeRecord } from './scope.ts';
import { readyDataset } from './summary.ts';

/** Starting, cancelling and listing runs. The work itself is in run-loop.ts. */

/**
 * Starts a run and returns as soon as its rows are known (status
 * `running`); progress arrives as `run` events. One run per dataset at a
 * time. App runs are the owner's own work: no rate limit, no per-request
 * sample cap, no cost cap, and no credit spent (their usage is recorded, see
 * OwnerRunUsage).
 */
export async function startRun(
  ctx: ServiceContext,
  deps: RunLoopDeps,
  request: ParsedRunRequest,
): Promise<RunStatus> {
  const asked = readyDataset(ctx.db, request.dataset_id);
  notRunning(ctx, asked);
  const { rows: indices } = await resolveScope(ctx.db, asked, request.scope, { size: false });
  // Asked again: the scope is worked out off this thread, and meanwhile the dataset may have
  // been deleted or another run started on it.
  const dataset = readyDataset(ctx.db, request.dataset_id);
  const registry = notRunning(ctx, dataset);
  if (indices.length === 0) {
    throw new AppError('invalid_request', 'no rows in the scope of this run', { param: '/scope' });
  }
  const startedAt = new Date().toISOString();
  const id = newId('run');
  insertRun(ctx.db, {
    id,
    dataset_id: dataset.id,
    operation: request.operation,
    scope_json: scopeRecord(request.scope, indices),
    config_json: JSON.stringify({ config: request.config, conventions: request.conventions }),
    total: indices.length,
    started_at: startedAt,
  });
  const run: ActiveRun = {
    id,
    datasetId: dataset.id,
    controller: new AbortController(),
    status: {
      id,
      dataset_id: dataset.id,
      operation: request.operation,
      status: 'running',
      total: indices.length,
      done: 0,
      rate_per_s: 0,
      cost_usd: 0,
      error: null,
      started_at: startedAt,
      finished_at: null,
    },
    finished: Promise.resolve(),
  };
  registry.add(run);
  run.finished = executeRun(ctx, deps, run, request, indices)
    .catch((error: unknown) => console.error(`run ${id} could not finish:`, error))
    .finally(() => {
      registry.remove(id);
      // The dataset checks look at the rows as the run left them.
      datasetScanner(ctx, deps.emit).request(dataset.id);
    });
  return run.status;
}

/** The dataset's run registry, once it is known no run is in progress on the dataset. */
function notRunning(ctx: ServiceContext, dataset: DatasetRecord): ReturnType<typeof runRegistry> {
  const registry = runRegistry(ctx.db);
  const current = registry.forDataset(dataset.id);
  if (current) {
    throw new AppError(
      'invalid_request',
      `dataset ${dataset.name} already has a run in progress (${current.id}): wait for it or cancel it`,
    );
  }
  return registry;
}

/**
 * Cancels a run: the batch in progress stops within a sample and is dropped
 * (not charged); rows finished before stay. Resolves with the final status.
 * Cancelling a run that has ended returns its status as it is.
 */
export async function cancelRun(ctx: ServiceContext, runId: string): Promise<RunStatus> {
  const active = runRegistry(ctx.db).get(runId);
  if (active) {
    active.controller.abort();
    await active.finished;
    return active.status;
  }
  const record = runRecord(ctx.db, runId);
  if (!record) throw new AppError('not_found', `no run with id ${JSON.stringify(runId)}`);
  return statusOfRecord(record);
}

/** A dataset's runs, newest first; those in progress with their live progress. */
export function listRuns(ctx: ServiceContext, datasetId: string): RunStatus[] {
  // A dataset still importing has no runs yet (none can start before it is ready): that is an
  // answer, not an error; the grid asks as soon as it opens one.
  if (datasetRecord(ctx.db, datasetId)?.state === 'importing') return [];
  readyDataset(ctx.db, datasetId);
  const registry = runRegistry(ctx.db);
  return runRecords(ctx.db, datasetId).map(
    (record) => registry.get(record.id)?.status ?? statusOfRecord(record),
  );
}
