import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AppError, type ErrorCode } from '../../src-shared/errors.ts';
import type { NativeError } from '../../src-shared/schemas/native.ts';
import type { OpenAIErrorBody } from '../../src-shared/schemas/openai.ts';

/**
 * The HTTP edge of the error model: one table from `ErrorCode` to the status
 * and body of each route family. `/v1` speaks OpenAI's error shape; every
 * other route the native `{detail, code}`.
 */

interface Translation {
  native: ContentfulStatusCode;
  v1: ContentfulStatusCode;
  v1Code: string;
  v1Type: string;
}

const TABLE: Record<ErrorCode, Translation> = {
  invalid_request: {
    native: 422,
    v1: 400,
    v1Code: 'invalid_request',
    v1Type: 'invalid_request_error',
  },
  context_length_exceeded: {
    native: 422,
    v1: 413,
    v1Code: 'context_length_exceeded',
    v1Type: 'invalid_request_error',
  },
  // The interface has one 413 code on /v1 for both "too large" conditions.
  cost_limit_exceeded: {
    native: 422,
    v1: 413,
    v1Code: 'context_length_exceeded',
    v1Type: 'invalid_request_error',
  },
  invalid_api_key: {
    native: 401,
    v1: 401,
    v1Code: 'invalid_api_key',
    v1Type: 'authentication_error',
  },
  unauthorized: { native: 401, v1: 401, v1Code: 'unauthorized', v1Type: 'authentication_error' },
  forbidden: { native: 403, v1: 403, v1Code: 'forbidden', v1Type: 'permission_error' },
  insufficient_quota: {
    native: 402,
    v1: 402,
    v1Code: 'insufficient_quota',
    v1Type: 'insufficient_quota',
  },
  not_found: { native: 404, v1: 404, v1Code: 'not_found', v1Type: 'invalid_request_error' },
  model_not_found: {
    native: 404,
    v1: 404,
    v1Code: 'model_not_found',
    v1Type: 'invalid_request_error',
  },
  payload_too_large: {
    native: 413,
    v1: 413,
    v1Code: 'payload_too_large',
    v1Type: 'invalid_request_error',
  },
  rate_limit_exceeded: {
    native: 429,
    v1: 429,
    v1Code: 'rate_limit_exceeded',
    v1Type: 'rate_limit_error',
  },
  service_error: { native: 502, v1: 502, v1Code: 'service_error', v1Type: 'server_error' },
  service_unavailable: {
    native: 503,
    v1: 503,
    v1Code: 'service_unavailable',
    v1Type: 'server_error',
  },
  cancelled: { native: 503, v1: 503, v1Code: 'service_unavailable', v1Type: 'server_error' },
  internal_error: { native: 500, v1: 500, v1Code: 'internal_error', v1Type: 'server_error' },
};

export const isV1Path = (path: string): boolean => path === '/v1' || path.startsWith('/v1/');

export function statusFor(error: AppError, path: string): ContentfulStatusCode {
  const row = TABLE[error.code];
  return isV1Path(path) ? row.v1 : row.native;
}

/** The routes an API key calls; the owner's routes (`/owner/...`) are the others. */
export const isKeyHolderPath = (path: string): boolean =>
  isV1Path(path) || path === '/audit' || path === '/fix' || path === '/refine';

/** What a key holder reads: never an upstream's address, model or configuration. */
const publicText = (error: AppError): string => error.publicMessage ?? error.message;

export function nativeBody(error: AppError, forKeyHolder = true): NativeError {
  const detail = forKeyHolder ? publicText(error) : error.message;
  return error.errors
    ? { detail, code: error.code, errors: error.errors }
    : { detail, code: error.code };
}

/** `/v1` is only ever answered to key holders. */
export function openAIBody(error: AppError): OpenAIErrorBody {
  const row = TABLE[error.code];
  return {
    error: {
      message: publicText(error),
      type: row.v1Type,
      param: error.param ?? null,
      code: row.v1Code,
    },
  };
}

/**
 * Anything thrown that is not an AppError is a bug: it becomes a 500 and is
 * logged once. An AppError whose key holders' text hides details is logged
 * with its full message, so the owner can still find the cause.
 */
export function asAppError(error: unknown, requestId: string): AppError {
  if (error instanceof AppError) {
    if (error.publicMessage !== undefined && error.publicMessage !== error.message) {
      console.error(`[${requestId}] ${error.code}: ${error.message}`);
    }
    return error;
  }
  console.error(`[${requestId}] unexpected error:`, error);
  return new AppError('internal_error', `internal error (request ${requestId})`, { cause: error });
}

export function errorResponse(c: Context, error: AppError): Response {
  if (error.retryAfterSeconds !== undefined) {
    c.header('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  }
  const status = statusFor(error, c.req.path);
  return isV1Path(c.req.path)
    ? c.json(openAIBody(error), status)
    : c.json(nativeBody(error, isKeyHolderPath(c.req.path)), status);
}
