import { z } from 'zod';
import { AuditedSample, FixedSample, RefinedSample } from './blocks.ts';
import { AuditConfig, Conventions, FixConfig, RefineConfig } from './config.ts';
import { Sample } from './sample.ts';

/** Bodies of the native routes `POST /audit`, `/fix`, `/refine`. */

export const MAX_SAMPLES_PER_NATIVE_REQUEST = 100;

const data = z
  .array(Sample)
  .min(1, 'data must not be empty')
  .max(
    MAX_SAMPLES_PER_NATIVE_REQUEST,
    `at most ${MAX_SAMPLES_PER_NATIVE_REQUEST} samples per request`,
  );

export const AuditRequest = z
  .strictObject({ data, config: AuditConfig.optional(), conventions: Conventions.optional() })
  .meta({ id: 'AuditRequest' });
export const FixRequest = z
  .strictObject({ data, config: FixConfig.optional(), conventions: Conventions.optional() })
  .meta({ id: 'FixRequest' });
export const RefineRequest = z
  .strictObject({ data, config: RefineConfig.optional(), conventions: Conventions.optional() })
  .meta({ id: 'RefineRequest' });
export type AuditRequest = z.output<typeof AuditRequest>;
export type FixRequest = z.output<typeof FixRequest>;
export type RefineRequest = z.output<typeof RefineRequest>;

const Count = z.int().min(0);
const billing = {
  cost_usd: z.number().min(0).meta({ description: 'Charged amount in USD (whole cents).' }),
  input_tokens: Count,
  output_tokens: Count,
  request_id: z.string(),
};

export const AuditCounts = z.object({ samples: Count, passed: Count, failed: Count });
export const FixCounts = z.object({
  samples: Count,
  changed: Count,
  unchanged: Count,
  flagged: Count,
});
export const RefineCounts = z.object({
  samples: Count,
  failed_before: Count,
  changed: Count,
  flagged: Count,
  failed_after: Count,
});

export const AuditResponse = z
  .object({ audited_data: z.array(AuditedSample), counts: AuditCounts, ...billing })
  .meta({ id: 'AuditResponse' });
export const FixResponse = z
  .object({ fixed_data: z.array(FixedSample), counts: FixCounts, ...billing })
  .meta({ id: 'FixResponse' });
export const RefineResponse = z
  .object({ refined_data: z.array(RefinedSample), counts: RefineCounts, ...billing })
  .meta({ id: 'RefineResponse' });
export type AuditCounts = z.infer<typeof AuditCounts>;
export type FixCounts = z.infer<typeof FixCounts>;
export type RefineCounts = z.infer<typeof RefineCounts>;
export type AuditResponse = z.infer<typeof AuditResponse>;
export type FixResponse = z.infer<typeof FixResponse>;
export type RefineResponse = z.infer<typeof RefineResponse>;

export const FieldError = z.object({
  path: z.string().meta({ description: 'JSON Pointer into the request body.' }),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldError>;

export const NativeError = z
  .object({
    detail: z.string(),
    code: z.string(),
    errors: z.array(FieldError).optional(),
  })
  .meta({ id: 'NativeError' });
export type NativeError = z.infer<typeof NativeError>;
