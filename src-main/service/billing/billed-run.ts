import { AppError } from '../../../src-shared/errors.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import type { ServiceContext } from '../context/service-context.ts';
import type { OperationRequest, OperationResult } from '../runs/contract.ts';
import { applyDatasetChecks } from '../dataset-checks/request.ts';
import { settingsBenchmarks } from '../contamination/matcher.ts';
import { recordHistory } from '../runs/history.ts';
import { runInBatches } from '../runs/operation.ts';
import { placeHold, releaseHold, settleHold } from './billing.ts';
import { chargeMicro, MICRO_PER_CENT, tokenCostMicro } from './money.ts';
import { TurnClock } from '../threads/turn-clock.ts';

/**
 * The money steps of a request billed to an API key's account, as the
 * interface says: one cent held at the start, the real token cost settled at
 * the end (rounded up to the cent, at least one cent), the hold released on
 * any failure or disconnect, and 402 with no result when the balance cannot
 * cover the settled cost. Fix and refine are kept in the history; audit
 * stores nothing about the samples. Routes do not call this directly: the
 * pipeline (billed-pipeline.ts) puts it in order with the checks and the gate.
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
    render: (billed: BilledResult) => T | Promise<T>,
  ): Promise<T>;
  release(memo: string): void;
}

/** What a released hold's ledger entry says: the failure's code, or 'failed'. */
export const releaseMemo = (error: unknown): string =>
  error instanceof AppError ? error.code : 'failed';

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
      let body: Awaited<ReturnType<typeof render>>;
      let billed: BilledResult;
      let byModel: ReturnType<OperationResult['usage']['byModel']>;
      let cost: number;
      let clock: TurnClock;
      try {
        result = await runInBatches(request, options.batchSize, {
          backend: options.backend,
          signal: options.signal,
        });
        // Dataset checks look across all of the request's samples, whatever its batches.
        await applyDatasetChecks(result, request.samples, {
          threshold: settings.dedup.threshold,
          benchmarks: settingsBenchmarks(settings),
          signal: options.signal,
        });
        // From here to the answer's write nothing waits: each step gets a turn of the event
        // loop of its own when the steps before it held the thread long (a large request), so
        // the server answers others between them. Started here, the clock counts this
        // request's work alone, not other requests' served while it awaited.
        clock = new TurnClock();
        if (options.signal?.aborted) throw new AppError('cancelled', 'the client went away');
        byModel = result.usage.byModel();
        cost = tokenCostMicro(byModel, settings.rates);
        billed = { result, chargedMicro: chargeMicro(cost), ...result.usage.total() };
        body = await render(billed);
        await clock.breathe();
        // Gone while the answer was made (or released meanwhile): nothing is charged.
        if (closed || options.signal?.aborted) {
          throw new AppError('cancelled', 'the client went away');
        }
      } catch (error) {
        release(releaseMemo(error));
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
      // The answer's write (a large one takes milliseconds) in a turn of its own too.
      await clock.breathe();
      return body;
    },
  };
}
