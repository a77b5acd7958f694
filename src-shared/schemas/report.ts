import { z } from 'zod';
import { TaskType } from './sample.ts';

/**
 * What a run found across its samples: the dataset checks' duplicate groups,
 * counts of failures and warnings per check and per issue code, statistics,
 * and findings (what stands out, said in words). Written by `svc
 * audit|fix|refine --report`, shown by the app's Overview.
 */

export const Tally = z.object({
  failed: z.int().meta({ description: 'Rows where it failed (an error).' }),
  warned: z.int().meta({ description: 'Rows where it only warned (no error).' }),
});
export type Tally = z.infer<typeof Tally>;

export const DuplicateGroup = z
  .object({
    kind: z.enum(['exact', 'near']),
    rows: z.array(z.int().min(0)).meta({
      description: '0-based positions in the run’s output, ascending; the first is kept.',
    }),
    similarity: z.number().min(0).max(1).meta({ description: 'Lowest similarity to the first.' }),
    label_conflict: z.boolean(),
    source_rows: z
      .array(z.int())
      .optional()
      .meta({ description: 'In the app: the rows’ numbers in the imported file.' }),
  })
  .meta({ id: 'DuplicateGroup' });
export type DuplicateGroup = z.infer<typeof DuplicateGroup>;

export const DatasetFinding = z
  .looseObject({
    code: z.string().meta({
      description:
        '`answer_position_skew`, `label_imbalance`, `duplicates`, `label_conflicts`, `templated_rows`, `mixed_languages`, `failing_check`.',
    }),
    message: z.string(),
  })
  .meta({ id: 'DatasetFinding' });
export type DatasetFinding = z.infer<typeof DatasetFinding>;

export const LengthStats = z.object({
  count: z.int(),
  min: z.int(),
  max: z.int(),
  mean: z.number(),
  p50: z.number().meta({ description: 'Read off the histogram.' }),
  p90: z.number(),
  histogram: z
    .array(z.object({ from: z.int(), to: z.int(), count: z.int() }))
    .meta({ description: 'Characters (turns for `turns per conversation`), log-2 bins.' }),
});
export type LengthStats = z.infer<typeof LengthStats>;

export const DatasetStatistics = z
  .object({
    samples: z.int(),
    task_types: z.partialRecord(TaskType, z.int()),
    answer_position: z
      .object({
        items: z.int(),
        counts: z
          .array(z.int())
          .meta({ description: 'Items labelled at each position (A, B...).' }),
        expected: z.array(z.number()).meta({ description: 'The same if positions were uniform.' }),
        chi_square: z.number(),
        p_value: z.number(),
      })
      .nullable(),
    labels: z
      .object({
        labelled: z.int(),
        distinct: z.int(),
        top: z.array(z.object({ label: z.string(), count: z.int() })),
      })
      .nullable()
      .meta({
        description: 'The labelled choice’s text (multiple choice), the final answer (QA).',
      }),
    lengths: z.record(z.string(), LengthStats),
    languages: z.object({
      sampled: z
        .int()
        .meta({ description: 'Rows identified (a uniform sample of at most 5,000).' }),
      detected: z.array(z.object({ language: z.string(), count: z.int() })).meta({
        description: 'ISO 639-1 codes; `und` where no language was reliably identified.',
      }),
    }),
  })
  .meta({ id: 'DatasetStatistics' });
export type DatasetStatistics = z.infer<typeof DatasetStatistics>;

export const DatasetReport = z
  .object({
    samples: z.int(),
    checks: z.record(z.string(), Tally).meta({ description: 'Per check: rows failed, warned.' }),
    issues: z
      .record(z.string(), Tally)
      .meta({ description: 'Per issue code: rows failed, warned.' }),
    duplicate_groups: z.array(DuplicateGroup),
    findings: z.array(DatasetFinding),
    statistics: DatasetStatistics,
  })
  .meta({ id: 'DatasetReport' });
export type DatasetReport = z.infer<typeof DatasetReport>;
