import type { BenchmarkChoice } from '../../../src-shared/benchmarks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { RequestChecksTask, SliceIssues } from '../file-pass/task-types.ts';
import type { OperationResult } from '../runs/contract.ts';
import { runWhereItFits } from '../runs/pool/pooled.ts';
import { checkRequest } from './check-request.ts';
import { applyDatasetVerdicts } from './core.ts';

export interface RequestChecks {
  /** The near-duplicate threshold. */
  threshold: number;
  /** The benchmarks `contamination` looks for (none: the check is off). */
  benchmarks: BenchmarkChoice;
  signal?: AbortSignal | undefined;
}

/**
 * The dataset checks of one API request: `duplicates` and `contamination`
 * over all of its samples (as sent, held in memory), merged into its result
 * (in place); the counts follow. A request holding POOLED_CHARS of text or
 * more is checked on an engine worker, as its operation is (pooled.ts): the
 * checks read ~0.3 µs a character, and 100 samples of 10 KB held the
 * server's thread 150-330 ms here.
 */
export async function applyDatasetChecks(
  result: OperationResult,
  samples: readonly Sample[],
  checks: RequestChecks,
): Promise<void> {
  const issues = await requestIssues(samples, checks);
  applyDatasetVerdicts(result, {
    duplicates: { issues: new Map(issues.duplicates) },
    contamination: { active: issues.active, issues: new Map(issues.contamination) },
  });
}

async function requestIssues(
  samples: readonly Sample[],
  checks: RequestChecks,
): Promise<SliceIssues> {
  const task = (): RequestChecksTask => ({
    kind: 'request-checks',
    samples: [...samples],
    threshold: checks.threshold,
    benchmarks: checks.benchmarks,
  });
  return runWhereItFits(samples, task, () => checkRequest(task()), checks.signal);
}
