import { AppError, type ErrorCode } from '../../../../src-shared/errors.ts';
import type { EngineModel } from '../../../../src-shared/models.ts';
import type { AuditBlock } from '../../../../src-shared/schemas/blocks.ts';
import type { AuditCounts, FieldError } from '../../../../src-shared/schemas/native.ts';
import { SampleError } from '../../../engine/operations.ts';
import { UsageMeter, type ModelUsage } from '../../../engine/usage.ts';
import { withoutResults, type OperationRequest, type OperationResult } from '../contract.ts';
import type { FileTask } from '../../file-pass/task-types.ts';

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
  /** Load the engine now: the worker's pass will run it (pool.ts `prestart`). */
  | { type: 'warm' }
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

interface WireCause {
  name: string;
  message: string;
  stack: string | undefined;
}

export type WireError =
  | {
      kind: 'app';
      code: ErrorCode;
      message: string;
      errors: FieldError[] | undefined;
      param: string | undefined;
      retryAfterSeconds: number | undefined;
      publicMessage: string | undefined;
    }
  | { kind: 'sample'; sampleIndex: number; cause: WireCause }
  | ({ kind: 'error' } & WireCause);

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

const causeOf = (error: unknown): WireCause =>
  error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error), stack: undefined };

function errorOf(cause: WireCause): Error {
  const error = new Error(cause.message);
  error.name = cause.name;
  if (cause.stack !== undefined) error.stack = cause.stack;
  return error;
}

export function encodeError(error: unknown): WireError {
  if (error instanceof AppError) {
    return {
      kind: 'app',
      code: error.code,
      message: error.message,
      errors: error.errors,
      param: error.param,
      retryAfterSeconds: error.retryAfterSeconds,
      publicMessage: error.publicMessage,
    };
  }
  if (error instanceof SampleError) {
    return { kind: 'sample', sampleIndex: error.sampleIndex, cause: causeOf(error.cause) };
  }
  return { kind: 'error', ...causeOf(error) };
}

/**
 * The error as the caller would have seen it from a run of the whole batch:
 * a failing sample is named by its place in the batch (`offset` is where the
 * worker's slice starts, `count` the batch's size), not in the slice.
 */
export function decodeError(error: WireError, offset: number, count: number): Error {
  switch (error.kind) {
    case 'app':
      return new AppError(error.code, error.message, {
        ...(error.errors && { errors: error.errors }),
        ...(error.param !== undefined && { param: error.param }),
        ...(error.retryAfterSeconds !== undefined && {
          retryAfterSeconds: error.retryAfterSeconds,
        }),
        ...(error.publicMessage !== undefined && { publicMessage: error.publicMessage }),
      });
    case 'sample':
      return new SampleError(offset + error.sampleIndex, count, errorOf(error.cause));
    case 'error':
      return errorOf(error);
  }
}
