import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { ContaminationMatcher } from '../../engine/contamination/match.ts';
import { ContaminationScan } from '../../engine/contamination/scan.ts';
import { findDuplicates } from '../../engine/dataset/duplicates.ts';
import type { OperationResult } from '../runs/contract.ts';
import { applyDatasetVerdicts, type DatasetChecked } from './core.ts';

export interface RequestChecks {
  /** The near-duplicate threshold. */
  threshold: number;
  /** What `contamination` looks for (`null`: nothing, the check is off). */
  contamination: ContaminationMatcher | null;
}

/**
 * The dataset checks of one API request: `duplicates` and `contamination`
 * over all of its samples (as sent, held in memory), merged into its result
 * (in place); the counts follow.
 */
export async function applyDatasetChecks(
  result: OperationResult,
  samples: readonly Sample[],
  checks: RequestChecks,
): Promise<DatasetChecked> {
  const duplicates = await findDuplicates(samples, checks.threshold, (i) => `data[${i}]`);
  const scan = new ContaminationScan(checks.contamination);
  for (const sample of samples) scan.add(sample);
  const checked = { duplicates, contamination: scan.finish() };
  applyDatasetVerdicts(result, checked);
  return checked;
}
