import type { z } from 'zod';
import type { FieldError } from './schemas/native.ts';

/**
 * One error model for the whole app. Code that fails throws an `AppError`;
 * each edge translates it once: native routes to `{detail, code}`, `/v1` to
 * the OpenAI error body, IPC to `{ok: false, error}`, the CLI to stderr.
 */

export const ERROR_CODES = [
  'invalid_request',
  'context_length_exceeded',
  'cost_limit_exceeded',
  'invalid_api_key',
  'unauthorized',
  'forbidden',
  'insufficient_quota',
  'not_found',
  'model_not_found',
  'payload_too_large',
  'rate_limit_exceeded',
  'service_error',
  'service_unavailable',
  'cancelled',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppErrorOptions {
  errors?: FieldError[];
  param?: string;
  retryAfterSeconds?: number;
  cause?: unknown;
  /**
   * What an API-key holder may read, when `message` says more than they
   * should see (an upstream server's address, model or configuration). The
   * owner's screens, the CLI and the server log keep `message`.
   */
  publicMessage?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly param: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly publicMessage: string | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.errors = options.errors;
    this.param = options.param;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.publicMessage = options.publicMessage;
  }
}

/** The serialisable form of an error, as it crosses IPC or the owner HTTP routes. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  errors?: FieldError[];
}

export function toErrorPayload(error: AppError): ErrorPayload {
  return error.errors
    ? { code: error.code, message: error.message, errors: error.errors }
    : { code: error.code, message: error.message };
}

/** RFC 6901 JSON Pointer for a zod issue path. */
export function toJsonPointer(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((segment) => '/' + String(segment).replaceAll('~', '~0').replaceAll('/', '~1'))
    .join('');
}

/** Turns a zod failure into field errors and a one-line summary that names the first place. */
export function fieldErrorsFrom(error: z.ZodError, prefix = ''): FieldError[] {
  return error.issues.map((issue) => ({
    path: prefix + toJsonPointer(issue.path),
    message: issue.message,
  }));
}

export function validationError(error: z.ZodError, what: string, prefix = ''): AppError {
  const errors = fieldErrorsFrom(error, prefix);
  const first = errors[0];
  const where = first ? ` at ${first.path || '/'}: ${first.message}` : '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new AppError('invalid_request', `invalid ${what}${where}${more}`, {
    errors,
    ...(first ? { param: first.path } : {}),
  });
}
