import { z } from 'zod';
import { rowIndices } from '../schemas/row-indices.ts';
import { AuditConfig, Conventions, FixConfig, RefineConfig } from '../schemas/config.ts';
import { RowFilter } from './datasets.ts';

/** Runs: an operation over a dataset's rows, in the background, with progress. */

export const RunScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('filter'), filter: RowFilter }),
  z.strictObject({
    kind: z.literal('selection'),
    indices: rowIndices({ min: 1, max: 1_000_000 }),
  }),
]);
export type RunScope = z.infer<typeof RunScope>;

export const RunRequest = z.discriminatedUnion('operation', [
  z.strictObject({
    dataset_id: z.string(),
    operation: z.literal('audit'),
    scope: RunScope,
    config: AuditConfig.default({ votes: 1 }),
    conventions: Conventions.optional(),
  }),
  z.strictObject({
    dataset_id: z.string(),
    operation: z.literal('fix'),
    scope: RunScope,
    config: FixConfig.default({ max_attempts: 3 }),
    conventions: Conventions.optional(),
  }),
  z.strictObject({
    dataset_id: z.string(),
    operation: z.literal('refine'),
    scope: RunScope,
    config: RefineConfig.default({
      audit: { votes: 1 },
      fix: { max_attempts: 3 },
      reaudit: { votes: 1 },
    }),
    conventions: Conventions.optional(),
  }),
]);
export type RunRequest = z.input<typeof RunRequest>;

export const RunEstimate = z.object({
  samples: z.int(),
  expected_cost_usd: z.number().meta({
    description:
      'What the run’s usage should cost at the rates: builtin engine, a trial run on a few ' +
      'percent of the rows (evenly spread), scaled by the size of every sample; an upstream, ' +
      'the upper bound.',
  }),
  max_cost_usd: z
    .number()
    .nullable()
    .meta({
      description:
        'At most: builtin engine, the trial slices’ mean rate three standard errors up; an ' +
        'upstream, every vote and fix attempt at generous output sizes. `null` for a short run.',
    }),
  short_run: z.boolean().meta({
    description:
      'The run takes about a second or less (its scope is at most 1 MiB as stored, or the ' +
      'trial’s first slices say so): the trial stopped after two slices (no bound); starting ' +
      'the run answers sooner than a full estimate.',
  }),
  trial_rows: z.int().meta({ description: 'Rows the trial ran (0: no trial, an upstream).' }),
  available_usd: z.number().meta({
    description: 'Credit available (for API keys: the owner’s own runs spend none).',
  }),
});
export type RunEstimate = z.infer<typeof RunEstimate>;

export const RUN_STATUSES = ['running', 'done', 'cancelled', 'failed'] as const;
export const RunStatus = z.object({
  id: z.string(),
  dataset_id: z.string(),
  operation: z.enum(['audit', 'fix', 'refine']),
  status: z.enum(RUN_STATUSES),
  total: z.int(),
  done: z.int(),
  rate_per_s: z.number(),
  cost_usd: z.number(),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type RunStatus = z.infer<typeof RunStatus>;
