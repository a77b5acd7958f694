import { AppError } from '../../../src-shared/errors.ts';
import type { OwnerEvent } from '../../../src-shared/owner-api.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { runInputs, updateRowResults } from '../../store/datasets-rows.ts';
import { finishRun, runRecord, updateRunProgress } from '../../store/datasets-runs.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { microToUsd } from '../billing/money.ts';
import { runOperation } from '../runs/operation.ts';
import { OwnerRunUsage } from '../owner/run-usage.ts';
import { readyDataset } from './summary.ts';
import { sampleReader } from './row-sample.ts';
import type { ActiveRun } from './run-registry.ts';
import { ratePerSecond, statusOfRecord } from './run-status.ts';
import { operationFor, type ParsedRunRequest } from './run-request.ts';
import { rowResult } from './row-state.ts';
import { Throttle } from './throttle.ts';

/** Rows sent to the engine at once; their results are written (and charged) together. */
export const RUN_BATCH_ROWS = 200;
/** Run progress events: at most one per this many milliseconds, then a final one. */
export const RUN_EVENT_INTERVAL_MS = 200;

export interface RunLoopDeps {
  backend: () => EngineBackend;
  emit: (event: OwnerEvent) => void;
}

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A run in the background: its rows in batches through the engine. After
 * each batch, in one transaction: its usage (OwnerRunUsage: the owner's runs
 * spend no credit), the rows' results, the history entry (fix and refine) and
 * the run's progress. Cancelling stops within a sample and drops the
 * unfinished batch; the batches done stay. A failure of the engine ends the
 * run `failed` with its message.
 */
export async function executeRun(
  ctx: ServiceContext,
  deps: RunLoopDeps,
  run: ActiveRun,
  request: ParsedRunRequest,
  indices: readonly number[],
): Promise<void> {
  const { db } = ctx;
  const { signal } = run.controller;
  // The ledger names the dataset a run's charges are for.
  const datasetName = readyDataset(db, run.datasetId).name;
  const usage = new OwnerRunUsage(db, {
    id: run.id,
    operation: request.operation,
    label: `of ${JSON.stringify(datasetName)}`,
    source: 'app',
  });
  const throttle = new Throttle(RUN_EVENT_INTERVAL_MS);
  const progress = (done: number): void => {
    run.status = {
      ...run.status,
      done,
      rate_per_s: ratePerSecond(done, run.status.started_at, Date.now()),
      cost_usd: microToUsd(usage.costMicro),
    };
    if (throttle.due()) deps.emit({ type: 'run', run: run.status });
  };

  let done = 0;
  try {
    for (let start = 0; start < indices.length; start += RUN_BATCH_ROWS) {
      if (signal.aborted) throw new AppError('cancelled', 'the run was cancelled');
      const inputs = runInputs(db, run.datasetId, indices.slice(start, start + RUN_BATCH_ROWS));
      const samples = inputs.map(sampleReader(db, run.datasetId));
      const result = await runOperation(operationFor(request, samples), {
        backend: deps.backend(),
        signal,
        onProgress: (n) => progress(done + n),
      });
      usage.recordBatch(
        {
          usage: result.usage.byModel(),
          rates: ctx.settings().rates,
          input: samples,
          output: result.data,
        },
        ({ costMicro }) => {
          updateRowResults(
            db,
            run.datasetId,
            inputs.map((row, i) => {
              const sample = result.data[i];
              if (!sample) {
                throw new Error(`the engine returned no result for row ${row.row_index}`);
              }
              return rowResult(
                request.operation,
                row,
                sample,
                result.operation === 'fix' ? result.audits[i] : undefined,
              );
            }),
          );
          updateRunProgress(db, run.id, { done: done + inputs.length, cost_micro: costMicro });
        },
      );
      done += inputs.length;
      progress(done);
      await nextTick();
    }
    end(ctx, run, 'done', null);
  } catch (error) {
    if (signal.aborted) end(ctx, run, 'cancelled', null);
    else if (error instanceof AppError) end(ctx, run, 'failed', error.message);
    else {
      console.error(`run ${run.id} failed:`, error);
      end(ctx, run, 'failed', `internal error: ${(error as Error).message}`);
    }
  }
  deps.emit({ type: 'run', run: run.status });
}

function end(
  ctx: ServiceContext,
  run: ActiveRun,
  status: 'done' | 'cancelled' | 'failed',
  error: string | null,
): void {
  finishRun(ctx.db, run.id, { status, error, finished_at: new Date().toISOString() });
  const record = runRecord(ctx.db, run.id);
  if (record) run.status = statusOfRecord(record);
}
