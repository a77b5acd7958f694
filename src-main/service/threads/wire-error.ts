import { AppError, type ErrorCode } from '../../../src-shared/errors.ts';
import type { FieldError } from '../../../src-shared/schemas/native.ts';
import { SampleError } from '../../engine/sample-error.ts';

/**
 * An error as it crosses from a worker thread to the one that asked: a
 * structured clone keeps an Error's message but not its class, so an
 * AppError travels as all of its fields (code, field errors, param, retry
 * hint, public message) and is rebuilt on arrival; the engine pool's
 * workers and the grid's worker both send it this way, so that an error
 * reads the same at the edge whichever thread raised it.
 */

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
 * worker's slice starts, `count` the batch's size), not in the slice. Where
 * no batch was split (the grid's queries) both are 0 and no sample fails.
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
