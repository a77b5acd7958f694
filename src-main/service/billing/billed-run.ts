import { AppError } from '../../../src-shared/errors.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { placeHold, releaseHold, settleHold } from './billing.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { checkContext, estimate, sampleTokens } from './estimate.ts';
import { recordHistory } from '../runs/history.ts';
import { chargeMicro, MICRO_PER_CENT, tokenCostMicro, usdToMicro } from './money.ts';
import { applyDatasetChecks } from '../dataset-checks/request.ts';
import { runInBatches, type OperationRequest, type OperationResult } from '../runs/operation.ts';

/**
 * A request billed to an API key's account, as the interface says: checks
 * before any work (context, the cost cap), one cent held at the start, the
 * real token cost settled at the end (rounded up to the cent, at least one
 * cent), the hold released on any failure or disconnect, and 402 with no
 * result when the balance cannot cover the settled cost. Fix and refine are
 * kept in the history; audit stores nothing about the samples.
 */

export const HOLD_MICRO = MICRO_PER_CENT;

export interface Caller {
  accountId: number;
  keyId: string | null;
  source: 'http' | 'v1' | 'app' | 'cli';
}

export interface BilledResult {
  result: OperationResult;
  chargedMicro: number;
  input_tokens: number;
  output_tokens: number;
}

/**
 * Everything that can be refused before a hold or any work. `settings` are
 * the request's (read once, when it came in: see http/caller.ts); by default
 * the ones in force now.
 */
export function preflight(
  ctx: ServiceContext,
  request: OperationRequest,
  pointerPrefix = '/data',
  settings: Settings = ctx.settings(),
): void {
  const tokens = sampleTokens(request.samples);
  checkContext(tokens, pointerPrefix);
  const cap = usdToMicro(settings.limits.cost_cap_usd_per_request);
  const { maxChargeMicro } = estimate(request, tokens, settings);
  if (maxChargeMicro > cap) {
    throw new AppError(
      'cost_limit_exceeded',
      `the estimated cost of this request, up to $${(maxChargeMicro / 1e6).toFixed(2)}, is above ` +
        `the per-request cap of $${(cap / 1e6).toFixed(2)}: send fewer or smaller samples, or lower votes/max_attempts`,
    );
  }
}

/**
 * A billed request in two steps, so a streamed response can refuse with 402
 * before it opens: `openBilling` places the hold (or throws), `run` does the
 * work, has `render` produce the response body from the result and what it
 * will cost, and only then settles. Whatever fails before the settle (the
 * work, a disconnect, rendering the body) releases the hold: a failure is
 * never charged. A session that never runs must be released.
 */
export interface BillingSession {
  run<T>(
    request: OperationRequest,
    options: RunBilledOptions,
    render: (billed: BilledResult) => T,
  ): Promise<T>;
  release(memo: string): void;
}

export interface RunBilledOptions {
  backend: EngineBackend;
  signal?: AbortSignal | undefined;
  /** Splits the samples into batches run in order (`/v1` takes more than a native call may). */
  batchSize?: number | undefined;
}

/**
 * `settings` are the request's, read once when it came in (the rates it is
 * charged at and the dedup threshold); by default the ones in force now.
 */
export function openBilling(
  ctx: ServiceContext,
  caller: Caller,
  requestId: string,
  settings: Settings = ctx.settings(),
): BillingSession {
  const holdId = placeHold(ctx.db, {
    accountId: caller.accountId,
    micro: HOLD_MICRO,
    requestId,
    keyId: caller.keyId ?? undefined,
  });
  let closed = false;
  const release = (memo: string): void => {
    if (closed) return;
    closed = true;
    releaseHold(ctx.db, holdId, memo);
  };
  return {
    release,
    run: async (request, options, render) => {
      let result: OperationResult;
      let body: ReturnType<typeof render>;
      let billed: BilledResult;
      let byModel: ReturnType<OperationResult['usage']['byModel']>;
      let cost: number;
      try {
        result = await runInBatches(request, options.batchSize, {
          backend: options.backend,
          signal: options.signal,
        });
        // Dataset checks look across all of the request's samples, whatever its batches.
        await applyDatasetChecks(result, request.samples, settings.dedup.threshold);
        if (options.signal?.aborted) throw new AppError('cancelled', 'the client went away');
        byModel = result.usage.byModel();
        cost = tokenCostMicro(byModel, settings.rates);
        billed = { result, chargedMicro: chargeMicro(cost), ...result.usage.total() };
        body = render(billed);
      } catch (error) {
        release(error instanceof AppError ? error.code : 'failed');
        throw error;
      }
      closed = true;
      const charged = billed.chargedMicro;
      // The charge and the history entry land together or not at all. settleHold
      // releases the hold itself when the balance cannot cover the charge (402).
      try {
        settleHold(ctx.db, holdId, {
          chargeMicro: charged,
          meta: { operation: request.operation, usage: byModel, token_cost_micro: cost },
          onCharged: () => {
            if (request.operation === 'audit') return; // audit stores nothing about the samples
            recordHistory(ctx.db, {
              accountId: caller.accountId,
              keyId: caller.keyId,
              requestId,
              operation: request.operation,
              source: caller.source,
              input: request.samples,
              output: result.data,
              costMicro: charged,
            });
          },
        });
      } catch (error) {
        // a 402 has released the hold already; any other failure leaves it open
        if (!(error instanceof AppError && error.code === 'insufficient_quota')) {
          closed = false;
          release('settlement failed');
        }
        throw error;
      }
      return body;
    },
  };
}

/** Hold, work, render, settle: the whole billed request in one call (preflight first). */
export async function runBilled<T>(
  ctx: ServiceContext,
  caller: Caller,
  requestId: string,
  request: OperationRequest,
  options: RunBilledOptions,
  render: (billed: BilledResult) => T,
  settings: Settings = ctx.settings(),
): Promise<T> {
  return openBilling(ctx, caller, requestId, settings).run(request, options, render);
}
