import { z } from 'zod';

/** `GET /pricing`: free-form by the interface; these members are what this service publishes. */

export const ModelRate = z.object({
  input: z.number().min(0).meta({ description: 'USD per million input tokens.' }),
  output: z.number().min(0).meta({ description: 'USD per million output tokens.' }),
});
export type ModelRate = z.infer<typeof ModelRate>;

export const Limits = z.object({
  samples_per_native_request: z.int(),
  requests_per_minute_native: z.int(),
  requests_per_minute_v1: z.int(),
  cost_cap_usd_per_request: z.number(),
  context_length_tokens: z.int(),
  votes: z.object({ min: z.int(), max: z.int(), default: z.int() }),
  max_attempts: z.object({ min: z.int(), max: z.int(), default: z.int() }),
  conventions_max_chars: z.int(),
});
export type Limits = z.infer<typeof Limits>;

export const PricingDocument = z
  .looseObject({
    currency: z.literal('USD'),
    unit: z.literal('per_million_tokens'),
    models: z.record(z.string(), ModelRate),
    minimum_charge_usd: z.number(),
    rounding: z.literal('up_to_cent'),
    limits: Limits,
  })
  .meta({ id: 'Pricing' });
export type PricingDocument = z.infer<typeof PricingDocument>;
