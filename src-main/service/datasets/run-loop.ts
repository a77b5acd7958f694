import { setImmediate as nextTick } from 'node:timers/promises';
import { AppError } from '../../../src-shared/errors.ts';
import type { OwnerEvent } from '../../../src-shared/owner-api.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import {
  runInputs,
  updateRowResults,
  type RowResultRecord,
  type RunInputRecord,
} from '../../store/datasets-rows.ts';
import { unsynced } from '../../store/commit.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { OperationResult } from '../runs/contract.ts';
import { finishRun, runRecord, updateRunProgress } from '../../store/datasets-runs.ts';
import { syncWalOffThread } from './wal-sync.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { microToUsd } from '../billing/money.ts';
import { runOperation } from '../runs/operation.ts';
import { OwnerRunUsage } from '../owner/run-usage.ts';
import { JsonText } from '../runs/history.ts';
import { readyDataset } from './summary.ts';
import { sampleReader } from './row-sample.ts';
import type { ActiveRun } from './run-registry.ts';
import { ratePerSecond, statusOfRecord } from './run-status.ts';
import { operationFor, type ParsedRunRequest } from './run-request.ts';
import { rowResult } from './row-state.ts';
import { Throttle } from './throttle.ts';
import type { ScopeRows } from './scope.ts';

/** Rows sent to the engine at once; their results are written (and charged) together. */
export const RUN_BATCH_ROWS = 200;
/** Run progress events: at most one per this many milliseconds, then a final one. */
export const RUN_EVENT_INTERVAL_MS = 200;

export interface RunLoopDeps {
  backend: () => EngineBackend;
  emit: (event: OwnerEvent) => void;
}

/**
 * A batch's rows are written in transactions of at most this many
 * milliseconds each, the server answering between them: one transaction per
 * batch of 200 refined rows (their blocks, seven partial indexes, the sort
 * counts' trigger) held the main thread 40-120 ms at 200k-1M rows.
 */
export const WRITE_SLICE_MS = 5;

interface Batch {
  start: number;
  inputs: RunInputRecord[];
  samples: Sample[];
  result: OperationResult;
}

/**
 * A run in the background: its rows in batches through the engine, the next
 * batch on the engine while the last one's results are written (so the
 * engine's threads do not wait for the writes). A batch's rows are written a
 * few milliseconds a transaction; then, in one transaction, its usage
 * (OwnerRunUsage: the owner's runs spend no credit), the history entry (fix
 * and refine) and the run's progress. A crash between those leaves rows with
 * their results and the batch's usage unrecorded (never more usage than was
 * stored). Cancelling stops within a sample and drops the unfinished batch;
 * the batches done stay. A failure of the engine ends the run `failed` with
 * its message.
 */
export async function executeRun(
  ctx: ServiceContext,
  deps: RunLoopDeps,
  run: ActiveRun,
  request: ParsedRunRequest,
  indices: ScopeRows,
): Promise<void> {
  const { db } = ctx;
  // Stops the batch on the engine when writing the one before it fails (not a cancel).
  const failing = new AbortController();
  const signal = AbortSignal.any([run.controller.signal, failing.signal]);
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
    // The batch on the engine reports while the one before it is still being written.
    if (done < run.status.done) return;
    run.status = {
      ...run.status,
      done,
      rate_per_s: ratePerSecond(done, run.status.started_at, Date.now()),
      cost_usd: microToUsd(usage.costMicro),
    };
    if (throttle.due()) deps.emit({ type: 'run', run: run.status });
  };
  const sampleOf = sampleReader(db, run.datasetId);
  const launch = async (start: number): Promise<Batch> => {
    const inputs = runInputs(db, run.datasetId, indices.slice(start, start + RUN_BATCH_ROWS));
    const samples = inputs.map(sampleOf);
    const result = await runOperation(operationFor(request, samples), {
      backend: deps.backend(),
      signal,
      onProgress: (n) => progress(start + n),
    });
    return { start, inputs, samples, result };
  };
  const write = async ({ start, inputs, samples, result }: Batch): Promise<void> => {
    // Each row's columns are made as its chunk is written: the batch's 200 at once held the
    // thread several milliseconds more than a slice.
    const rowOf = (i: number): RowResultRecord => {
      const row = inputs[i] as RunInputRecord;
      const sample = result.data[i];
      if (!sample) throw new Error(`the engine returned no result for row ${row.row_index}`);
      return rowResult(
        request.operation,
        row,
        sample,
        result.operation === 'fix' ? result.audits[i] : undefined,
      );
    };
    // Fix and refine keep the batch's samples in and out as history. Their JSON (a refined
    // batch of 200 GSM8K rows is ~220 KB, and took up to 12 ms at once) is made a row at a
    // time in the slices that write the rows, and joined when the batch is recorded.
    const history =
      request.operation === 'audit' ? undefined : { input: [] as string[], output: [] as string[] };
    // Not in the turn that launched the next batch (its rows read, its samples sent to a
    // worker): the two together held the thread ~16 ms, twice the longest slice.
    await nextTick();
    for (let at = 0; at < inputs.length;) {
      const deadline = performance.now() + WRITE_SLICE_MS;
      const end = Math.min(inputs.length, at + WRITE_MAX_ROWS);
      // Derived from the engine's output: the run's end is an fsync'd commit.
      unsynced(db, () => {
        do {
          const chunk = [];
          for (const stop = Math.min(end, at + WRITE_CHUNK_ROWS); at < stop; at++) {
            chunk.push(rowOf(at));
            history?.input.push(JSON.stringify(samples[at]));
            history?.output.push(JSON.stringify(result.data[at]));
          }
          updateRowResults(db, run.datasetId, chunk);
        } while (at < end && performance.now() < deadline);
      });
      await nextTick();
    }
    usage.recordBatch(
      {
        usage: result.usage.byModel(),
        rates: ctx.settings().rates,
        input: history ? JsonText.ofItems(history.input) : samples,
        output: history ? JsonText.ofItems(history.output) : result.data,
        samples: samples.length,
      },
      ({ costMicro }) => {
        updateRunProgress(db, run.id, { done: start + inputs.length, cost_micro: costMicro });
      },
    );
    progress(start + inputs.length);
  };

  let next: Promise<Batch> | undefined;
  let written = 0;
  let outcome: { status: 'done' | 'cancelled' | 'failed'; error: string | null };
  try {
    next = indices.length > 0 ? launch(0) : undefined;
    while (next) {
      const batch = await next;
      const after = batch.start + RUN_BATCH_ROWS;
      next = after < indices.length && !signal.aborted ? launch(after) : undefined;
      // Heard when awaited; until then its failure must not count as unhandled.
      next?.catch(() => undefined);
      await write(batch);
      written = Math.min(indices.length, batch.start + RUN_BATCH_ROWS);
      await nextTick();
    }
    // Cancelled while a batch was written, before the next one started.
    if (written < indices.length) throw new AppError('cancelled', 'the run was cancelled');
    outcome = { status: 'done', error: null };
  } catch (error) {
    failing.abort();
    await next?.catch(() => undefined);
    if (run.controller.signal.aborted) outcome = { status: 'cancelled', error: null };
    else if (error instanceof AppError) outcome = { status: 'failed', error: error.message };
    else {
      console.error(`run ${run.id} failed:`, error);
      outcome = { status: 'failed', error: `internal error: ${(error as Error).message}` };
    }
  }
  // Recorded once: an end that cannot be recorded (the disk failing) is not tried again.
  try {
    await end(ctx, run, outcome.status, outcome.error);
  } finally {
    deps.emit({ type: 'run', run: run.status });
  }
}

/** Rows updated between two looks at the clock (a row's update takes 0.1-0.5 ms). */
const WRITE_CHUNK_ROWS = 8;
/** And at most this many a transaction, however fast the clock says they go. */
const WRITE_MAX_ROWS = 64;

/**
 * Records the run's end: an fsync'd commit. Its batches were not fsync'd, so
 * the WAL they grew since the last checkpoint is flushed off the thread first;
 * the commit then writes out only its own frames on the server's thread. If
 * that flush fails, the run's results may not be on the disk: the run is
 * recorded failed, with why (and the commit still tries its own fsync).
 */
async function end(
  ctx: ServiceContext,
  run: ActiveRun,
  status: 'done' | 'cancelled' | 'failed',
  error: string | null,
): Promise<void> {
  const flushed = await syncWalOffThread(ctx.db).then(
    () => null,
    (failure: unknown) => (failure as Error).message,
  );
  const ended =
    flushed === null
      ? { status, error }
      : {
          status: 'failed' as const,
          error: `its results could not be written to the disk: ${flushed}`,
        };
  const finished_at = new Date().toISOString();
  try {
    finishRun(ctx.db, run.id, { ...ended, finished_at });
  } catch (failure) {
    // Not recorded (the start-up pass ends it): those watching are told it failed, and why.
    run.status = {
      ...run.status,
      status: 'failed',
      error: `its end could not be recorded: ${(failure as Error).message}`,
      finished_at,
    };
    throw failure;
  }
  const record = runRecord(ctx.db, run.id);
  if (record) run.status = statusOfRecord(record);
}
