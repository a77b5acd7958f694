import type { EngineModel } from '../../../src-shared/models.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';
import type { ModelUsage } from '../../engine/usage.ts';

/**
 * Money is integer micro-USD everywhere inside. Rates are USD per million
 * tokens, i.e. micro-USD per token; products are taken in BigInt so that no
 * float rounding ever touches an amount.
 */

export const MICRO_PER_USD = 1_000_000;
export const MICRO_PER_CENT = 10_000;
export const MINIMUM_CHARGE_MICRO = MICRO_PER_CENT;

/** USD (as configured, e.g. 0.5) -> integer micro-USD, exactly for up to 6 decimals. */
export function usdToMicro(usd: number): number {
  return Math.round(usd * MICRO_PER_USD);
}

export function microToUsd(micro: number): number {
  return micro / MICRO_PER_USD;
}

/** Nano-USD per token, as an integer: a rate of 0.5 USD/M tokens is 500 nano-USD per token. */
const nanoPerToken = (usdPerMillion: number): bigint => BigInt(Math.round(usdPerMillion * 1000));

/** The exact token cost in nano-USD. */
export function tokenCostNano(
  usage: Partial<Record<EngineModel, Pick<ModelUsage, 'input_tokens' | 'output_tokens'>>>,
  rates: Settings['rates'],
): bigint {
  let nano = 0n;
  for (const [model, used] of Object.entries(usage) as [EngineModel, ModelUsage][]) {
    const rate = rates[model];
    nano += BigInt(used.input_tokens) * nanoPerToken(rate.input);
    nano += BigInt(used.output_tokens) * nanoPerToken(rate.output);
  }
  return nano;
}

/** Nano-USD (never negative: rates are at least 0) rounded up to the micro-USD. */
export const microOfNano = (nano: bigint): number => Number((nano + 999n) / 1000n);

/** The exact token cost, rounded up to the micro-USD. */
export function tokenCostMicro(
  usage: Partial<Record<EngineModel, Pick<ModelUsage, 'input_tokens' | 'output_tokens'>>>,
  rates: Settings['rates'],
): number {
  return microOfNano(tokenCostNano(usage, rates));
}

/** What a request is charged: the token cost rounded up to the cent, at least one cent. */
export function chargeMicro(tokenCost: number): number {
  const cents = Math.ceil(tokenCost / MICRO_PER_CENT);
  return Math.max(MINIMUM_CHARGE_MICRO, cents * MICRO_PER_CENT);
}

/** `cost_usd` as the envelopes report it: whole cents, as a number. */
export const microToCostUsd = (micro: number): number => Math.round(micro / MICRO_PER_CENT) / 100;
