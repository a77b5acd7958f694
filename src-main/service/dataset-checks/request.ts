import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { findDuplicates, type DuplicateResult } from '../../engine/dataset/duplicates.ts';
import type { OperationResult } from '../runs/contract.ts';
import { applyDuplicates } from './core.ts';

/**
 * The dataset checks of one API request: the `duplicates` check over all of
 * its samples (as sent, held in memory), merged into its result (in place);
 * the counts follow.
 */
export async function applyDatasetChecks(
  result: OperationResult,
  samples: readonly Sample[],
  threshold: number,
): Promise<DuplicateResult> {
  const duplicates = await findDuplicates(samples, threshold, (i) => `data[${i}]`);
  applyDuplicates(result, duplicates);
  return duplicates;
}
