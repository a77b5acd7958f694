import { z } from 'zod';
import type { DatasetFinding } from '../../../../src-shared/schemas/report.ts';

/**
 * The contamination check's findings among a scan's, read with their
 * members (a finding's schema is loose: each code carries its own).
 */

const BenchmarkContamination = z.object({
  code: z.literal('benchmark_contamination'),
  message: z.string(),
  rows: z.int(),
  benchmarks: z.array(
    z.object({
      benchmark: z.string(),
      kind: z.enum(['benchmark', 'evaluation_set']),
      rows: z.int(),
      items: z.int(),
    }),
  ),
});
export type BenchmarkContamination = z.infer<typeof BenchmarkContamination>;

const BenchmarkDataset = z.object({
  code: z.literal('benchmark_dataset'),
  message: z.string(),
  benchmark: z.string(),
  rows: z.int(),
});
export type BenchmarkDataset = z.infer<typeof BenchmarkDataset>;

export interface ContaminationFindings {
  contamination: BenchmarkContamination | null;
  /** The benchmarks the dataset is (usually one). */
  itself: BenchmarkDataset[];
}

export function contaminationFindings(findings: readonly DatasetFinding[]): ContaminationFindings {
  let contamination: BenchmarkContamination | null = null;
  const itself: BenchmarkDataset[] = [];
  for (const finding of findings) {
    const a = BenchmarkContamination.safeParse(finding);
    if (a.success) contamination = a.data;
    const b = BenchmarkDataset.safeParse(finding);
    if (b.success) itself.push(b.data);
  }
  return { contamination, itself };
}
