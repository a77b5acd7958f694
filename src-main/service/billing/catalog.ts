import { CHAT_MODELS, findChatModel } from '../../../src-shared/models.ts';
import {
  CONVENTIONS_MAX_CHARS,
  MAX_ATTEMPTS_MAX,
  MAX_ATTEMPTS_MIN,
  VOTES_MAX,
  VOTES_MIN,
} from '../../../src-shared/schemas/config.ts';
import { MAX_SAMPLES_PER_NATIVE_REQUEST } from '../../../src-shared/schemas/native.ts';
import type { ModelCard } from '../../../src-shared/schemas/openai.ts';
import type { PricingDocument } from '../../../src-shared/schemas/pricing.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';

/** Largest sample the models take, in tokens; larger ones are refused before any work. */
export const CONTEXT_LENGTH_TOKENS = 32_768;
export const MINIMUM_CHARGE_USD = 0.01;
/** When version 1 of the models was published (a fixed date, so cards are stable). */
const MODELS_CREATED = Math.floor(Date.UTC(2026, 0, 1) / 1000);

/**
 * USD per million tokens -> USD per token as an exact decimal string
 * (`0.5` -> `"0.0000005"`), avoiding the float's `5e-7` rendering.
 */
export function perMillionToPerToken(ratePerMillion: number): string {
  const micro = ratePerMillion.toFixed(6).replace('.', ''); // value * 1e6, as digits
  const digits = micro.replace(/^0+/, '') || '0';
  if (digits === '0') return '0';
  const scale = 12; // per token = value / 1e6, and micro carries 6 decimals
  const padded = digits.padStart(scale + 1, '0');
  const whole = padded.slice(0, padded.length - scale);
  const fraction = padded.slice(padded.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export function pricingDocument(settings: Settings): PricingDocument {
  return {
    currency: 'USD',
    unit: 'per_million_tokens',
    models: {
      'svc-audit-1': { ...settings.rates['svc-audit-1'] },
      'svc-fix-1': { ...settings.rates['svc-fix-1'] },
    },
    minimum_charge_usd: MINIMUM_CHARGE_USD,
    rounding: 'up_to_cent',
    limits: {
      samples_per_native_request: MAX_SAMPLES_PER_NATIVE_REQUEST,
      requests_per_minute_native: settings.limits.requests_per_minute_native,
      requests_per_minute_v1: settings.limits.requests_per_minute_v1,
      cost_cap_usd_per_request: settings.limits.cost_cap_usd_per_request,
      context_length_tokens: CONTEXT_LENGTH_TOKENS,
      votes: { min: VOTES_MIN, max: VOTES_MAX, default: 1 },
      max_attempts: { min: MAX_ATTEMPTS_MIN, max: MAX_ATTEMPTS_MAX, default: 3 },
      conventions_max_chars: CONVENTIONS_MAX_CHARS,
    },
    chat_models: Object.fromEntries(CHAT_MODELS.map((m) => [m.id, { bills: m.uses }])),
  };
}

/**
 * A chat model's card. Its `pricing` is the rate of the engine model it is
 * named after (svc-fix-1 for fix and refine: the higher of the two it uses);
 * each token is still billed at the rate of the engine model that spent it.
 */
function card(id: string, settings: Settings): ModelCard {
  const model = findChatModel(id);
  if (!model) throw new Error(`unknown chat model ${id}`);
  const rate =
    model.operation === 'audit' ? settings.rates['svc-audit-1'] : settings.rates['svc-fix-1'];
  return {
    id: model.id,
    object: 'model',
    created: MODELS_CREATED,
    owned_by: 'svc',
    context_length: CONTEXT_LENGTH_TOKENS,
    pricing: {
      prompt: perMillionToPerToken(rate.input),
      completion: perMillionToPerToken(rate.output),
    },
  };
}

export function modelCards(settings: Settings): ModelCard[] {
  return CHAT_MODELS.map((m) => card(m.id, settings));
}

/** The card for a versioned id or an unversioned alias; `undefined` when unknown. */
export function findModelCard(id: string, settings: Settings): ModelCard | undefined {
  return findChatModel(id) ? card(id, settings) : undefined;
}
