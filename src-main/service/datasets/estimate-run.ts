import type { z } from 'zod';
import type { RunEstimate } from '../../../src-shared/owner/runs.ts';
import { samplesPage } from '../../store/datasets-rows.ts';
import { balances, OWNER_ACCOUNT_ID } from '../billing/billing.ts';
import type { ServiceContext } from '../context/service-context.ts';
import { estimate, sampleTokens, type Estimate } from '../billing/estimate.ts';
import { microToUsd, tokenCostMicro } from '../billing/money.ts';
import { runOperation } from '../runs/operation.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { operationFor, type ParsedRunRequest } from './run-request.ts';
import { sampleReader } from './row-sample.ts';
import { scopeIndices } from './scope.ts';
import { readyDataset } from './summary.ts';

/** Samples read (and tokenized) per step of an estimate; the event loop runs between steps. */
export const ESTIMATE_BATCH_ROWS = 1000;

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Rows of the trial run an estimate makes on the builtin engine. */
export const TRIAL_ROWS = 200;

/** Up to `count` of the indices, evenly spread (all of them when there are fewer). */
function evenly(indices: readonly number[], count: number): number[] {
  if (indices.length <= count) return [...indices];
  return Array.from(
    { length: count },
    (_, i) => indices[Math.floor((i * indices.length) / count)] as number,
  );
}

/**
 * What a run's usage would cost at the rates (the owner's runs spend no
 * credit; this says what the tokens are worth). Input tokens are counted
 * exactly for every row. Expected: on the builtin engine, a trial run of the
 * same operation on up to TRIAL_ROWS rows spread over the scope, its cost
 * scaled by the input tokens of the whole scope against the trial's (the
 * engine is fast and deterministic, so this is what the run will do, within
 * what the trial's rows stand for); on an upstream, the upper bound (a
 * trial would spend the upstream's tokens). The upper bound of estimate.ts
 * (every vote, every fix attempt with its re-audit, generous outputs) is
 * given beside it.
 */
export async function estimateRun(
  ctx: ServiceContext,
  request: ParsedRunRequest,
  backend: EngineBackend,
): Promise<z.output<typeof RunEstimate>> {
  const dataset = readyDataset(ctx.db, request.dataset_id);
  const indices = scopeIndices(ctx.db, dataset, request.scope);
  const settings = ctx.settings();
  const usage: Estimate['usage'] = {
    'svc-audit-1': { input_tokens: 0, output_tokens: 0 },
    'svc-fix-1': { input_tokens: 0, output_tokens: 0 },
  };
  let totalTokens = 0;
  const sampleOf = sampleReader(ctx.db, dataset.id);
  for (let start = 0; start < indices.length; start += ESTIMATE_BATCH_ROWS) {
    const page = samplesPage(ctx.db, dataset.id, indices.slice(start, start + ESTIMATE_BATCH_ROWS));
    const samples = page.map(sampleOf);
    const tokens = sampleTokens(samples);
    totalTokens += tokens.reduce((a, b) => a + b, 0);
    const part = estimate(operationFor(request, samples), tokens, settings);
    for (const model of ['svc-audit-1', 'svc-fix-1'] as const) {
      usage[model].input_tokens += part.usage[model].input_tokens;
      usage[model].output_tokens += part.usage[model].output_tokens;
    }
    await nextTick();
  }
  const maxMicro = indices.length === 0 ? 0 : tokenCostMicro(usage, settings.rates);
  let expectedMicro = maxMicro;
  if (backend.id === 'builtin' && indices.length > 0) {
    const trialRows = samplesPage(ctx.db, dataset.id, evenly(indices, TRIAL_ROWS));
    const trial = trialRows.map(sampleOf);
    const result = await runOperation(operationFor(request, trial), { backend });
    const trialTokens = sampleTokens(trial).reduce((a, b) => a + b, 0);
    const trialCost = tokenCostMicro(result.usage.byModel(), settings.rates);
    expectedMicro = Math.round(trialCost * (totalTokens / Math.max(1, trialTokens)));
  }
  return {
    samples: indices.length,
    expected_cost_usd: microToUsd(expectedMicro),
    max_cost_usd: microToUsd(maxMicro),
    available_usd: microToUsd(Math.max(0, balances(ctx.db, OWNER_ACCOUNT_ID).available_micro)),
  };
}
