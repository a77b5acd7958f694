import type { Settings } from '../../../src-shared/schemas/settings.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import type { ServiceContext } from '../context/service-context.ts';
import type { OperationRequest } from '../runs/contract.ts';
import { openBilling, releaseMemo, type BilledResult, type Caller } from './billed-run.ts';
import type { OperationGate } from './operation-gate.ts';
import { preflight } from './preflight.ts';

/**
 * The one way a billed request runs, whatever its route: preflight (context,
 * cost cap) → gate (503 when the queue is full) → hold (402 when a cent
 * cannot be held) → run (wait for a slot, the work, the body rendered from
 * the result) → settle. `open` takes the steps that can refuse before any
 * work, so a streamed response can answer with their status before its
 * stream opens; `run` on what it returns does the rest. Whatever fails after
 * the hold and before the settle (the wait, the work, a disconnect, the
 * rendering) releases the hold: a failure is never charged.
 *
 * A request takes its place in the queue when its run starts, not when it is
 * opened: a streamed response opens its stream in between and sends
 * keepalives while it waits.
 */

export interface BilledRequest {
  caller: Caller;
  requestId: string;
  request: OperationRequest;
  /** The request's settings, read once when it came in (the cap, the rates, the dedup threshold). */
  settings: Settings;
  /** Where the samples are in the request body, for a refusal that points at one. */
  samplesPointer: string;
}

export interface BilledWork {
  /** Fires when the client goes away: the wait or the work stops, the hold is released. */
  signal: AbortSignal;
  /** Splits the samples into batches run in order (`/v1` takes more than a native call may). */
  batchSize?: number | undefined;
}

/** A billed request past its refusals: its cent is held. */
export interface OpenedBilledRequest {
  /** Waits for a slot, runs, renders the body (before the settle), settles; returns the body. */
  run<T>(work: BilledWork, render: (billed: BilledResult) => T | Promise<T>): Promise<T>;
  /** Releases the hold of a request that will not run (no-op once it ran). */
  release(memo: string): void;
}

export interface BilledPipeline {
  /** Preflight, gate, hold: throws the refusal, or returns the request ready to run. */
  open(billed: BilledRequest): Promise<OpenedBilledRequest>;
  /** `open` then `run`, for a response that has nothing to send before the work. */
  run<T>(
    billed: BilledRequest,
    work: BilledWork,
    render: (billed: BilledResult) => T | Promise<T>,
  ): Promise<T>;
}

export interface BilledPipelineDeps {
  ctx: ServiceContext;
  /** Shared by every billed route: how many run at once, how many may wait. */
  gate: OperationGate;
  /** The engine backend in force, read when a request's slot comes up. */
  backend: () => EngineBackend;
}

export function createBilledPipeline({ ctx, gate, backend }: BilledPipelineDeps): BilledPipeline {
  const open = async (billed: BilledRequest): Promise<OpenedBilledRequest> => {
    const { caller, requestId, request, settings } = billed;
    await preflight(ctx, request, billed.samplesPointer, settings);
    gate.assertRoom();
    const session = openBilling(ctx, caller, requestId, settings);
    return {
      release: (memo) => session.release(memo),
      run: async ({ signal, batchSize }, render) => {
        try {
          return await gate.run(
            () => session.run(request, { backend: backend(), signal, batchSize }, render),
            signal,
          );
        } catch (error) {
          // A request that never got its slot still holds its cent (after a run, a no-op).
          session.release(releaseMemo(error));
          throw error;
        }
      },
    };
  };
  return { open, run: async (billed, work, render) => (await open(billed)).run(work, render) };
}
