import { CONTAMINATION_CHECK, DUPLICATES_CHECK } from '../../../src-shared/checks.ts';
import type { AuditBlock, FixBlock, Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { contaminationVerdict, type ContaminationResult } from '../../engine/contamination/scan.ts';
import { duplicatesVerdict, type DuplicateResult } from '../../engine/dataset/duplicates.ts';
import type { OperationResult, ResultSample } from '../runs/contract.ts';

/**
 * The dataset checks look across a run's samples: `duplicates`
 * (engine/dataset finds them) and `contamination` (engine/contamination:
 * evaluation items inside the rows, and whether the run is a benchmark
 * itself). Each adapter is named for where its samples come from: one
 * request's (`request.ts`), a file's (`file.ts`, the CLI), a stored
 * dataset's (`sqlite.ts`, the app). What they share is here: a sample's
 * verdicts merged into its result, and the counts that follow.
 *
 * Audit and reaudit blocks get the dataset checks' verdicts (a failing one
 * fails the block); a fix result cannot drop a duplicate or an evaluation
 * item (one output per input), so such a row's fix block (fix and refine)
 * is flagged, made for it when the fix changed nothing.
 */

/** A sample's verdicts from the dataset checks, by check, in the order they are reported. */
export type DatasetVerdicts = Readonly<Record<string, Verdict>>;

/** What the dataset checks found over a run's samples. */
export interface DatasetChecked {
  duplicates: DuplicateResult;
  contamination: ContaminationResult;
}

/** Issues by a sample's position in the run. */
interface IssuesAt {
  get(position: number): readonly Issue[] | undefined;
}

/**
 * What a sample's verdicts are read from: the whole of DatasetChecked, or
 * the issues of just a slice of positions (what an engine worker is sent).
 */
export interface DatasetIssues {
  duplicates: { issues: IssuesAt };
  contamination: { active: boolean; issues: IssuesAt };
}

/** The dataset checks' verdicts of the sample at `position` (the run's samples counted from 0). */
export function verdictsAt(checked: DatasetIssues, position: number): DatasetVerdicts {
  const verdicts: Record<string, Verdict> = {
    [DUPLICATES_CHECK]: duplicatesVerdict(checked.duplicates.issues.get(position)),
  };
  if (checked.contamination.active) {
    verdicts[CONTAMINATION_CHECK] = contaminationVerdict(
      checked.contamination.issues.get(position),
    );
  }
  return verdicts;
}

const NONE: IssuesAt = { get: () => undefined };

/**
 * A row's verdicts where the dataset checks found nothing in it (`active`:
 * whether the contamination check runs): what a shard's rows carry until
 * `svc merge`, which has the whole file, changes the few rows with findings.
 */
export function cleanVerdicts(active: boolean): DatasetVerdicts {
  return verdictsAt({ duplicates: { issues: NONE }, contamination: { active, issues: NONE } }, 0);
}

/** Whether any of the verdicts fails. */
export const anyFailed = (verdicts: DatasetVerdicts): boolean =>
  Object.values(verdicts).some((verdict) => verdict.passed === false);

/** A fix result has no audit: the block its dataset checks alone make (counted in a report). */
export const datasetChecksOnly = (verdicts: DatasetVerdicts): AuditBlock => ({
  passed: !anyFailed(verdicts),
  checks: { ...verdicts },
  model: 'dataset-checks',
  votes: 1,
});

/** An audit block with each of the verdicts added (last, in order). */
export function withChecks(audit: AuditBlock, verdicts: DatasetVerdicts): AuditBlock {
  let out = audit;
  for (const [name, verdict] of Object.entries(verdicts)) out = withCheck(out, name, verdict);
  return out;
}

/** The audit block with the check's verdict added (last), and `passed` following it. */
export function withCheck(audit: AuditBlock, name: string, verdict: Verdict): AuditBlock {
  const checks = { ...audit.checks };
  Reflect.deleteProperty(checks, name);
  checks[name] = verdict;
  return { ...audit, checks, passed: audit.passed && verdict.passed !== false };
}

/** One sample's result with its dataset checks' verdicts. */
export function withDatasetVerdicts(
  operation: OperationResult['operation'],
  sample: ResultSample,
  verdicts: DatasetVerdicts,
): ResultSample {
  const out: ResultSample = { ...sample };
  if (out.audit) out.audit = withChecks(out.audit, verdicts);
  if (out.reaudit) out.reaudit = withChecks(out.reaudit, verdicts);
  // Refine as fix: its sample still fails a check after the fix stage, so a person should look.
  if (operation !== 'audit' && anyFailed(verdicts)) {
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
        flagged: sample.fix?.flagged ? 1 : 0,
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
 * Applies the dataset checks' findings to a result whose data are the run's
 * samples from position `offset` on (a batch of a longer run), in order.
 */
export function applyDatasetVerdicts(
  result: OperationResult,
  checked: DatasetIssues,
  offset = 0,
): void {
  result.data = result.data.map((sample, i) =>
    withDatasetVerdicts(result.operation, sample, verdictsAt(checked, offset + i)),
  );
  recount(result);
}
