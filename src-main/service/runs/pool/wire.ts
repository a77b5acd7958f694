import type { EngineModel } from '../../../../src-shared/models.ts';
import type { AuditBlock } from '../../../../src-shared/schemas/blocks.ts';
import type { AuditCounts } from '../../../../src-shared/schemas/native.ts';
import type { RankTableParts } from '../../../engine/bpe/rank-table.ts';
import { UsageMeter, type ModelUsage } from '../../../engine/usage.ts';
import { withoutResults, type OperationRequest, type OperationResult } from '../contract.ts';
import type { FileTask } from '../../file-pass/task-types.ts';
import type { WireError } from '../../threads/wire-error.ts';

/**
 * What crosses between the main thread and an engine worker. Messages are
 * structured clones: plain data survives, class instances do not, so the
 * usage meter travels as its per-model totals and errors as their fields,
 * and both are rebuilt on arrival. An audit's result samples are the
 * request's samples with a block added: only the blocks come back, and the
 * samples are put together here from the ones this thread sent, as a run in
 * this thread would have (half the bytes to copy, in the worker and in this
 * thread, which both workers compete with for 2 cores).
 */

/** What a worker is given to do: a slice of an operation, or a slice of a file's pass. */
export type PoolTask = { kind: 'operation'; request: OperationRequest } | FileTask;

export type ToWorker =
  | { type: 'run'; id: number; task: PoolTask }
  | { type: 'cancel'; id: number }
  /** Load now what the worker's first slices will run: a file pass's tasks, the engine (pool.ts `prestart`). */
  | { type: 'warm'; engine: boolean; fileTasks: boolean }
  /** The tokenizer's table, built in shared memory by the pool's thread: adopted, not built again. */
  | { type: 'tables'; o200k: RankTableParts }
  /** Idle and no longer wanted: give the heap back on this thread and end (pool.ts `#retire`). */
  | { type: 'retire' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'failed'; id: number; error: WireError };

type Usage = Partial<Record<EngineModel, ModelUsage>>;

export type WireResult =
  | { operation: 'audit'; blocks: AuditBlock[]; counts: AuditCounts; usage: Usage }
  | (Omit<Exclude<OperationResult, { operation: 'audit' }>, 'usage'> & { usage: Usage });

export function encodeResult(result: OperationResult): WireResult {
  const usage = result.usage.byModel();
  if (result.operation !== 'audit') return { ...result, usage };
  const blocks = result.data.map((sample) => sample.audit as AuditBlock);
  return { operation: 'audit', blocks, counts: result.counts, usage };
}

/** The meter back from its totals. */
export const meterOf = (usage: Usage): UsageMeter => UsageMeter.of(usage);

/** The result of `request` (the slice as sent) from what its worker sent back. */
export function decodeResult(result: WireResult, request: OperationRequest): OperationResult {
  const usage = meterOf(result.usage);
  if (result.operation !== 'audit') return { ...result, usage } as OperationResult;
  const { blocks, counts } = result;
  const data = request.samples.map((sample, i) => ({
    ...withoutResults(sample),
    audit: blocks[i] as AuditBlock,
  }));
  return { operation: 'audit', data, counts, usage };
}
