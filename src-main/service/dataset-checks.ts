import type { AuditBlock, FixBlock, Verdict } from '../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../src-shared/schemas/sample.ts';
import {
  duplicatesVerdict,
  findDuplicates,
  type DuplicateResult,
} from '../engine/dataset/duplicates.ts';
import type { OperationResult, ResultSample } from './operation.ts';

/**
 * The dataset checks of one request: the `duplicates` check over all of its
 * samples (as sent), merged into each sample's result. Audit and reaudit
 * blocks get the `duplicates` verdict (a failing one fails the block); a fix
 * result cannot drop a duplicate (one output per input), so a duplicate's fix
 * block is flagged, made for it when the fix changed nothing. The counts
 * follow.
 */

import { DUPLICATES_CHECK } from '../../src-shared/checks.ts';

/** The audit block with the check's verdict added (last), and `passed` following it. */
export function withCheck(audit: AuditBlock, name: string, verdict: Verdict): AuditBlock {
  const checks = { ...audit.checks };
  Reflect.deleteProperty(checks, name);
  checks[name] = verdict;
  return { ...audit, checks, passed: audit.passed && verdict.passed !== false };
}

/** One sample's result with its `duplicates` verdict. */
export function withDuplicatesVerdict(
  operation: OperationResult['operation'],
  sample: ResultSample,
  verdict: Verdict,
): ResultSample {
  const out: ResultSample = { ...sample };
  if (out.audit) out.audit = withCheck(out.audit, DUPLICATES_CHECK, verdict);
  if (out.reaudit) out.reaudit = withCheck(out.reaudit, DUPLICATES_CHECK, verdict);
  if (operation === 'fix' && verdict.passed === false) {
    const fix: FixBlock = out.fix ?? { changes: [], flagged: true, attempts: 0 };
    out.fix = { ...fix, flagged: true };
  }
  return out;
}

/** The counts of a result, recounted from its samples after dataset checks changed them. */
function recount(result: OperationResult): void {
  const data = result.data;
  const failed = (audit: AuditBlock | null | undefined): boolean => audit?.passed === false;
  switch (result.operation) {
    case 'audit': {
      const bad = data.filter((s) => failed(s.audit)).length;
      result.counts = { ...result.counts, passed: data.length - bad, failed: bad };
      break;
    }
    case 'fix':
      result.counts = { ...result.counts, flagged: data.filter((s) => s.fix?.flagged).length };
      break;
    case 'refine':
      result.counts = {
        ...result.counts,
        failed_before: data.filter((s) => failed(s.audit)).length,
        failed_after: data.filter((s) => failed(s.reaudit ?? s.audit)).length,
      };
      break;
  }
}

/**
 * Applies duplicates found beforehand to a result whose data are the run's
 * samples from position `offset` on (a batch of a longer run), in order.
 */
export function applyDuplicates(
  result: OperationResult,
  duplicates: DuplicateResult,
  offset = 0,
): void {
  result.data = result.data.map((sample, i) =>
    withDuplicatesVerdict(
      result.operation,
      sample,
      duplicatesVerdict(duplicates.issues.get(offset + i)),
    ),
  );
  recount(result);
}

/** The dataset checks over a request's samples, merged into its result (in place). */
export async function applyDatasetChecks(
  result: OperationResult,
  samples: readonly Sample[],
  threshold: number,
): Promise<DuplicateResult> {
  const duplicates = await findDuplicates(samples, threshold, (i) => `data[${i}]`);
  applyDuplicates(result, duplicates);
  return duplicates;
}
