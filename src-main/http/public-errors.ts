import { AppError } from '../../src-shared/errors.ts';
import type { EngineBackend } from '../engine/backend.ts';
import { builtinBackend } from '../engine/builtin/backend.ts';

/**
 * What an API-key holder reads when an upstream engine fails. The engine's
 * own messages name the model server (address, model, configuration) so the
 * owner can act on them; a key holder learns only what happened and whether
 * to retry. The full message still reaches the server log and the owner.
 */
export function publicUpstreamMessage(error: AppError): string {
  switch (error.code) {
    case 'rate_limit_exceeded':
      return error.retryAfterSeconds !== undefined
        ? `the model server is busy; retry after ${Math.max(1, Math.ceil(error.retryAfterSeconds))} s`
        : 'the model server is busy; retry later';
    case 'cancelled':
      return error.message;
    case 'service_error':
      return 'the model server failed this request; retry later';
    case 'service_unavailable':
      return 'the model server is not available; retry later';
    default:
      return 'the model server refused this request';
  }
}

function withPublicMessage(error: unknown): unknown {
  if (!(error instanceof AppError) || error.publicMessage !== undefined) return error;
  return new AppError(error.code, error.message, {
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.param !== undefined ? { param: error.param } : {}),
    ...(error.retryAfterSeconds !== undefined
      ? { retryAfterSeconds: error.retryAfterSeconds }
      : {}),
    cause: error,
    publicMessage: publicUpstreamMessage(error),
  });
}

/**
 * The backend with every failure it reports given a key holder's text. The
 * builtin engine names no model server, so it is returned as it is: that
 * keeps it recognisable as the builtin engine, which runs large batches on
 * the engine's worker threads (service/runs/pool/pooled.ts).
 */
export function withPublicErrors(backend: EngineBackend): EngineBackend {
  if (backend === builtinBackend) return backend;
  return {
    id: backend.id,
    ...(backend.concurrency !== undefined ? { concurrency: backend.concurrency } : {}),
    audit: (sample, ctx) =>
      backend.audit(sample, ctx).catch((error: unknown) => {
        throw withPublicMessage(error);
      }),
    proposeFix: (...args) =>
      backend.proposeFix(...args).catch((error: unknown) => {
        throw withPublicMessage(error);
      }),
  };
}
