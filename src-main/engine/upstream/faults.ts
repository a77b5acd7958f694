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

/** `text` with every occurrence of the key, in any letter case, replaced by `[key]`. */
export function withoutKey(text: string, apiKey: string | null): string {
  if (!apiKey) return text;
  const escaped = apiKey.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(escaped, 'gi'), '[key]');
}

/** What the server said, shortened and without the key. */
export function scrub(text: string, apiKey: string | null): string {
  const out = withoutKey(text, apiKey).replace(/\s+/g, ' ').trim();
  return out.length > MAX_MESSAGE ? `${out.slice(0, MAX_MESSAGE)}…` : out;
}

/** Bounds on the wait passed on to clients: at least a second, at most an hour. */
export const MIN_RETRY_AFTER_SECONDS = 1;
export const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * Seconds to wait from a response's `retry-after-ms` or `Retry-After`
 * (seconds or an HTTP date), within 1 s and an hour (a far-off date is a
 * server's mistake, not advice); 1 s when it gives none, since a throttled
 * client must be told something.
 */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number {
  const clamp = (seconds: number): number =>
    Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(MIN_RETRY_AFTER_SECONDS, Math.ceil(seconds)));
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return clamp(Number(ms) / 1000);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return MIN_RETRY_AFTER_SECONDS;
  if (/^\d+(\.\d+)?$/.test(value)) return clamp(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return MIN_RETRY_AFTER_SECONDS;
  return clamp((date - now) / 1000);
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

/** What the deepest cause says ("bad port", "other side closed"): the SDK's own is generic. */
function innermostMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  let node: unknown = error;
  for (let depth = 0; depth < 6 && node instanceof Error; depth++) {
    if (node.message) message = node.message;
    node = node.cause;
  }
  return message;
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
        : `lost the connection to the upstream model server (${ctx.server}): ` +
            (code ?? scrub(innermostMessage(error), ctx.apiKey)),
      { cause },
    );
  }
  if (error instanceof RateLimitError) {
    const wait = retryAfterSeconds(error.headers);
    return new AppError(
      'rate_limit_exceeded',
      `the upstream model server (${ctx.server}) is rate limiting: ${said(error)}; ` +
        `retry after ${wait} s`,
      { cause, retryAfterSeconds: wait },
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
