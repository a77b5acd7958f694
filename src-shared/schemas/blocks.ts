import { z } from 'zod';
import { Sample } from './sample.ts';
import { AUDIT_MODEL_ID, FIX_MODEL_ID } from './model-ids.ts';

/** The result blocks the service adds to samples: `audit`, `fix`, `reaudit`. */

export const Issue = z
  .object({
    code: z.string().meta({ description: 'Machine-readable reason, e.g. `mojibake`.' }),
    message: z.string(),
    path: z
      .string()
      .optional()
      .meta({ description: 'JSON Pointer into the sample, e.g. `/choices/2`.' }),
    severity: z.enum(['error', 'warning']).optional().meta({
      description: 'An `error` fails its check; a `warning` only lowers the score.',
    }),
    ref: z
      .int()
      .min(0)
      .optional()
      .meta({
        description:
          'The related sample (dataset checks): its 0-based index among the samples of the same ' +
          'run (the request’s `data`, the CLI’s output, the dataset’s rows).',
      }),
    similarity: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .meta({
        description:
          'How alike the sample and `ref` are (near duplicates: Jaccard); for `contamination`, ' +
          'the share of the evaluation item’s n-grams the sample holds.',
      }),
    span: z
      .tuple([z.int().min(0), z.int().min(0)])
      .optional()
      .meta({ description: '`[start, end)` character offsets in the string at `path`.' }),
    benchmark: z
      .string()
      .optional()
      .meta({
        description:
          'The evaluation set the sample overlaps (`contamination`): a public benchmark as ' +
          '`name/split` (`gsm8k/test`), or the name of the user’s own evaluation set.',
      }),
    benchmark_item: z.int().min(0).optional().meta({
      description:
        'The overlapped item: its 0-based line in the benchmark’s file (or row of the set).',
    }),
  })
  .meta({ id: 'Issue' });
export type Issue = z.infer<typeof Issue>;

export const Score = z.number().min(0).max(1);

export const Verdict = z
  .object({
    passed: z
      .boolean()
      .nullable()
      .meta({ description: '`null` when the engine could not decide.' }),
    score: Score,
    issues: z.array(Issue),
    agreement: Score.optional().meta({
      description: 'Share of the votes that agree with the verdict (present when votes > 1).',
    }),
  })
  .meta({ id: 'Verdict' });
export type Verdict = z.infer<typeof Verdict>;

export { AUDIT_MODEL_ID, FIX_MODEL_ID };

export const AuditBlock = z
  .object({
    passed: z.boolean().meta({ description: 'True when no check failed.' }),
    checks: z.record(z.string(), Verdict),
    label_correct: z
      .boolean()
      .nullable()
      .optional()
      .meta({ description: 'multiple_choice only: `null` when it cannot be verified.' }),
    answer_correct: z
      .boolean()
      .nullable()
      .optional()
      .meta({ description: 'question_answer only: `null` when it cannot be verified.' }),
    model: z.string().meta({ examples: [AUDIT_MODEL_ID] }),
    votes: z.int().min(1),
  })
  .meta({ id: 'AuditBlock' });
export type AuditBlock = z.infer<typeof AuditBlock>;

export const Change = z
  .object({
    op: z.enum(['add', 'remove', 'replace']),
    path: z.string().meta({ description: 'JSON Pointer (RFC 6901).' }),
    value: z.unknown().optional(),
    old: z.unknown().optional().meta({ description: 'The value replaced or removed.' }),
    reason: z.string().meta({ description: 'The check this change answers.' }),
  })
  .meta({ id: 'Change' });
export type Change = z.infer<typeof Change>;

export const FixBlock = z
  .object({
    changes: z.array(Change).meta({
      description: 'JSON Patch (RFC 6902); applied to the input sample it gives the output sample.',
    }),
    flagged: z.boolean().meta({ description: 'True when a human should look.' }),
    attempts: z.int().min(0),
    edited: z
      .boolean()
      .optional()
      .meta({ description: 'In the app: the candidate is a person’s edit, not the engine’s fix.' }),
  })
  .meta({ id: 'FixBlock' });
export type FixBlock = z.infer<typeof FixBlock>;

/**
 * Samples as they come back: the input sample plus the blocks of the
 * operation. The blocks' side is loose: as a closed object its JSON Schema
 * (`additionalProperties: false`) refused the sample's own fields, so the
 * OpenAPI document rejected every real response.
 */
export const AuditedSample = z.intersection(Sample, z.looseObject({ audit: AuditBlock }));
export const FixedSample = z.intersection(Sample, z.looseObject({ fix: FixBlock.optional() }));
export const RefinedSample = z.intersection(
  Sample,
  z.looseObject({ audit: AuditBlock, fix: FixBlock.optional(), reaudit: AuditBlock.nullable() }),
);
export type AuditedSample = z.infer<typeof AuditedSample>;
export type FixedSample = z.infer<typeof FixedSample>;
export type RefinedSample = z.infer<typeof RefinedSample>;
