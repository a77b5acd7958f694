import type { z } from 'zod';
import type { RunEstimate } from '../../../src-shared/owner/runs.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { samplesPage } from '../../store/datasets-rows.ts';
import { balances, OWNER_ACCOUNT_ID } from '../billing.ts';
import type { ServiceContext } from '../context.ts';
import { estimate, sampleTokens, type Estimate } from '../estimate.ts';
import { chargeMicro, microToUsd, tokenCostMicro } from '../money.ts';
import { operationFor, type ParsedRunRequest } from './run-request.ts';
import { scopeIndices } from './scope.ts';
import { readyDataset } from './summary.ts';

/** Samples read (and tokenized) per step of an estimate; the event loop runs between steps. */
export const ESTIMATE_BATCH_ROWS = 1000;

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The most a run may cost: the upper bound of estimate.ts (every vote, every
 * fix attempt with its re-audit, generous outputs) summed over the scope's
 * samples, rounded up to the cent as the run would be charged; and the credit
 * available to pay for it.
 */
export async function estimateRun(
  ctx: ServiceContext,
  request: ParsedRunRequest,
): Promise<z.output<typeof RunEstimate>> {
  const dataset = readyDataset(ctx.db, request.dataset_id);
  const indices = scopeIndices(ctx.db, dataset, request.scope);
  const settings = ctx.settings();
  const usage: Estimate['usage'] = {
    'svc-audit-1': { input_tokens: 0, output_tokens: 0 },
    'svc-fix-1': { input_tokens: 0, output_tokens: 0 },
  };
  for (let start = 0; start < indices.length; start += ESTIMATE_BATCH_ROWS) {
    const page = samplesPage(ctx.db, dataset.id, indices.slice(start, start + ESTIMATE_BATCH_ROWS));
    const samples = page.map((row) => JSON.parse(row.sample_json) as Sample);
    const part = estimate(operationFor(request, samples), sampleTokens(samples), settings);
    for (const model of ['svc-audit-1', 'svc-fix-1'] as const) {
      usage[model].input_tokens += part.usage[model].input_tokens;
      usage[model].output_tokens += part.usage[model].output_tokens;
    }
    await nextTick();
  }
  const maxMicro = indices.length === 0 ? 0 : chargeMicro(tokenCostMicro(usage, settings.rates));
  return {
    samples: indices.length,
    max_cost_usd: microToUsd(maxMicro),
    available_usd: microToUsd(Math.max(0, balances(ctx.db, OWNER_ACCOUNT_ID).available_micro)),
  };
}
