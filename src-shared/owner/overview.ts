import { z } from 'zod';
import { DatasetFinding, DatasetStatistics, DuplicateGroup, Tally } from '../schemas/report.ts';

/** A dataset as a whole: its latest scan, counts per check and issue code, duplicate groups. */

export const DatasetOverview = z.object({
  dataset_id: z.string(),
  rows: z.int().meta({ description: 'Rows not dropped.' }),
  scanning: z.boolean().meta({ description: 'A scan is running; the overview will follow it.' }),
  scan: z
    .object({
      scanned_at: z.string(),
      threshold: z.number(),
      statistics: DatasetStatistics,
    })
    .nullable()
    .meta({ description: 'The latest dataset scan; null before the first.' }),
  checks: z.record(z.string(), Tally).meta({
    description: 'Per check: rows whose verdict in force fails it, and rows where it only warned.',
  }),
  issues: z.record(z.string(), Tally).meta({ description: 'Per issue code, the same.' }),
  findings: z.array(DatasetFinding),
  duplicate_groups: z.object({
    total: z.int(),
    groups: z.array(DuplicateGroup).meta({ description: 'The first groups (rows: dataset rows).' }),
  }),
});
export type DatasetOverview = z.infer<typeof DatasetOverview>;

export const DuplicateGroupsQuery = z.strictObject({
  dataset_id: z.string(),
  offset: z.int().min(0).default(0),
  limit: z.int().min(1).max(500).default(50),
});

export const DuplicateGroupsPage = z.object({
  total: z.int(),
  groups: z.array(DuplicateGroup),
});
export type DuplicateGroupsPage = z.infer<typeof DuplicateGroupsPage>;
