import { DUPLICATES_CHECK } from '../../../src-shared/checks.ts';
import type { AuditBlock, FixBlock, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { duplicatesVerdict, type DuplicateResult } from '../../engine/dataset/duplicates.ts';
import type { OperationResult, ResultSample } from '../runs/contract.ts';

/**
 * The dataset checks look across a run's samples: the `duplicates` check
 * (engine/dataset finds them). Each adapter is named for where its samples
 * come from: one request's (`request.ts`), a file's (`file.ts`, the CLI), a
 * stored dataset's (`sqlite.ts`, the app). What they share is here: a
 * sample's verdict merged into its result, and the counts that follow.
 *
 * Audit and reaudit blocks get the `duplicates` verdict (a failing one fails
 * the block); a fix result cannot drop a duplicate (one output per input), so
 * a duplicate's fix block is flagged, made for it when the fix changed
 * nothing.
 */

/** The `duplicates` verdict of the sample at `position` (the run's samples counted from 0). */
export const verdictAt = (duplicates: DuplicateResult, position: number): Verdict =>
  duplicatesVerdict(duplicates.issues.get(position));

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

const failedAudit = (audit: AuditBlock | null | undefined): boolean => audit?.passed === false;

/**
 * What one sample adds to the counts the dataset checks can change (the
 * others are the engine's own): a result's are the sums over its samples, so
 * `svc merge` recounts a whole file from its rows as a single run does batch
 * by batch.
 */
export function recountOf(
  operation: OperationResult['operation'],
  sample: ResultSample,
): Record<string, number> {
  switch (operation) {
    case 'audit': {
      const failed = failedAudit(sample.audit) ? 1 : 0;
      return { passed: 1 - failed, failed };
    }
    case 'fix':
      return { flagged: sample.fix?.flagged ? 1 : 0 };
    case 'refine':
      return {
        failed_before: failedAudit(sample.audit) ? 1 : 0,
        failed_after: failedAudit(sample.reaudit ?? sample.audit) ? 1 : 0,
      };
  }
}

/** Adds `counts` to `into`, name by name. */
export function addCounts(into: Record<string, number>, counts: Record<string, number>): void {
  for (const [name, n] of Object.entries(counts)) into[name] = (into[name] ?? 0) + n;
}

/** The counts of a result, recounted from its samples after dataset checks changed them. */
function recount(result: OperationResult): void {
  const sums: Record<string, number> = {};
  // An empty result still says 0 for each (its counts already do).
  for (const sample of result.data) addCounts(sums, recountOf(result.operation, sample));
  result.counts = { ...result.counts, ...sums };
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
    withDuplicatesVerdict(result.operation, sample, verdictAt(duplicates, offset + i)),
  );
  recount(result);
}
