import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  RateLimitError,
} from 'openai';
import { AppError } from '../../../src-shared/errors.ts';

/**
 * How an upstream failure reaches the caller (see the README's fault table):
 *
 * | upstream                                  | AppError              | HTTP |
 * | ----------------------------------------- | --------------------- | ---- |
 * | 429 (Retry-After passed on)               | `rate_limit_exceeded` | 429  |
 * | 5xx, refused/lost connection, timeout     | `service_error`       | 502  |
 * | 401/403 (key), 404 (model, URL), other 4xx | `service_error`       | 502  |
 * | junk, malformed verdicts (after retries)  | `service_error`       | 502  |
 * | our caller went away (signal aborted)     | `cancelled`           | -    |
 *
 * Messages name the server and model, never the key (it is scrubbed from
 * anything the server said).
 */

export interface FaultContext {
  /** `llama3.1 at http://127.0.0.1:11434/v1` */
  server: string;
  timeoutMs: number;
  apiKey: string | null;
  signal?: AbortSignal | undefined;
}

const MAX_MESSAGE = 300;

/** What the server said, shortened and without the key. */
export function scrub(text: string, apiKey: string | null): string {
  let out = text;
  if (apiKey) out = out.split(apiKey).join('[key]');
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE)}…` : out;
}

/** Seconds to wait from a response's `retry-after-ms` or `Retry-After` (seconds or an HTTP date). */
export function retryAfterSeconds(
  headers: Headers | undefined,
  now = Date.now(),
): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.ceil(Number(ms) / 1000);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The `code` of the innermost error that has one (undici puts ECONNREFUSED two causes deep). */
function causeCode(error: unknown): string | undefined {
  let node: unknown = error;
  for (let depth = 0; depth < 6 && node !== null && typeof node === 'object'; depth++) {
    const code = (node as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    node = (node as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A connection failure worth one more try: the connection was lost, not refused. */
export function isTransient(error: unknown): boolean {
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError)
    return false;
  if (error instanceof APIConnectionError) return causeCode(error) !== 'ECONNREFUSED';
  if (!(error instanceof APIError)) return false;
  const status: unknown = error.status;
  return status === 502 || status === 503 || status === 504;
}

/** Whether what an error says holds the key (a server echoing it back). */
function mentionsKey(error: unknown, apiKey: string | null): boolean {
  if (!apiKey) return false;
  for (let node = error, depth = 0; node instanceof Error && depth < 6; depth++) {
    if (node.message.includes(apiKey)) return true;
    node = node.cause;
  }
  return false;
}

export function upstreamFault(error: unknown, ctx: FaultContext): AppError {
  if (error instanceof AppError) return error;
  // The SDK's error goes along as the cause, unless it would carry the key there.
  const cause = mentionsKey(error, ctx.apiKey) ? undefined : error;
  if (ctx.signal?.aborted || error instanceof APIUserAbortError) {
    return new AppError('cancelled', 'the request was cancelled', { cause });
  }
  const said = (e: Error): string => scrub(e.message, ctx.apiKey);
  if (error instanceof APIConnectionTimeoutError) {
    return new AppError(
      'service_error',
      `the upstream model (${ctx.server}) did not answer within ${ctx.timeoutMs / 1000} s`,
      { cause },
    );
  }
  if (error instanceof APIConnectionError) {
    const code = causeCode(error);
    return new AppError(
      'service_error',
      code === 'ECONNREFUSED'
        ? `cannot reach the upstream model server (${ctx.server}): connection refused; is it running?`
        : `lost the connection to the upstream model server (${ctx.server})${code ? `: ${code}` : ''}`,
      { cause },
    );
  }
  if (error instanceof RateLimitError) {
    const wait = retryAfterSeconds(error.headers);
    return new AppError(
      'rate_limit_exceeded',
      `the upstream model server (${ctx.server}) is rate limiting: ${said(error)}` +
        (wait === undefined ? '' : `; retry after ${wait} s`),
      { cause, ...(wait === undefined ? {} : { retryAfterSeconds: wait }) },
    );
  }
  const status: unknown = error instanceof APIError ? error.status : undefined;
  if (error instanceof APIError && typeof status === 'number') {
    const why =
      status === 401 || status === 403
        ? 'refused the API key'
        : status === 404
          ? 'has no such model, or no chat completions under this base URL (it usually ends in /v1)'
          : status >= 500
            ? 'failed'
            : 'refused the request';
    return new AppError(
      'service_error',
      `the upstream model server (${ctx.server}) ${why}: ${said(error)}`,
      { cause },
    );
  }
  const message = error instanceof Error ? said(error) : 'unknown error';
  return new AppError(
    'service_error',
    `the upstream model server (${ctx.server}) gave an unusable answer: ${message}`,
    { cause },
  );
}
