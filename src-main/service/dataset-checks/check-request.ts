import { ContaminationScan } from '../../engine/contamination/scan.ts';
import { findDuplicates } from '../../engine/dataset/duplicates.ts';
import { contaminationMatcher } from '../contamination/matcher.ts';
import type { RequestChecksTask, SliceIssues } from '../file-pass/task-types.ts';

/**
 * An API request's dataset checks themselves, where they run (an engine
 * worker, or the calling thread): each sample's issues by its position.
 */
export async function checkRequest(task: RequestChecksTask): Promise<SliceIssues> {
  const duplicates = await findDuplicates(task.samples, task.threshold, (i) => `data[${i}]`);
  const scan = new ContaminationScan(contaminationMatcher({ benchmarks: task.benchmarks }));
  for (const sample of task.samples) scan.add(sample);
  const contamination = scan.finish();
  return {
    active: contamination.active,
    duplicates: [...duplicates.issues],
    contamination: [...contamination.issues],
  };
}
