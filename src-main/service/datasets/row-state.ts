import type { AuditBlock, FixBlock } from '../../../src-shared/schemas/blocks.ts';
import { anyFailed, withChecks, type DatasetVerdicts } from '../dataset-checks/core.ts';
import { RESULT_KEYS, type Sample } from '../../../src-shared/schemas/sample.ts';
import type { RowResultRecord, RunInputRecord } from '../../store/datasets-rows.ts';
import type { ResultSample } from '../runs/contract.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/**
 * How a run's result lands on a row. Runs always work on the imported sample.
 *
 * - audit: replaces `audit`; a fix, its reaudit and the decision stay (they
 *   were made from the same sample).
 * - fix: replaces `fix` and the fixed sample, and resets the decision; the
 *   reaudit becomes the fix's own audit of the candidate it accepted (an
 *   older one was of an older candidate), and a row without an audit gets the
 *   fix's audit of the input.
 * - refine: replaces all three blocks and resets the decision.
 *
 * The stored verdict columns (passed, score, failed checks, unverified) are
 * those of the sample the export will hold (`verdictInForce`): the reaudit
 * once the fix is accepted, otherwise the audit. So the grid, its filters and
 * the export's verdict columns never credit a fix nobody accepted. Flagged and
 * changed are those of the fix.
 */

type Operation = 'audit' | 'fix' | 'refine';

const parse = (json: string | null): unknown => (json === null ? null : parseJsonExact(json));
const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

function withoutBlocks(result: ResultSample): Sample {
  const sample: Record<string, unknown> = { ...result };
  for (const key of RESULT_KEYS) Reflect.deleteProperty(sample, key);
  return sample as Sample;
}

export interface VerdictColumns {
  passed: 0 | 1 | null;
  score: number | null;
  failed_checks: string;
  unverified: 0 | 1;
  /** ',a,b,': the codes of the verdict's errors, of its warnings, and the checks that warned. */
  error_codes: string;
  warning_codes: string;
  warning_checks: string;
}

/** `,a,b,` for a list (each once, in order), '' for none. */
const delimited = (items: readonly string[]): string =>
  items.length === 0 ? '' : `,${[...new Set(items)].join(',')},`;

/**
 * The verdict a row shows: that of what its export holds (`verdictInForce`)
 * with the row's dataset-check verdicts from the latest dataset scan
 * (`duplicates`, `contamination`). A row never audited shows them alone
 * when one failed.
 */
export function displayedVerdict(
  audit: AuditBlock | null,
  reaudit: AuditBlock | null,
  decision: 'accepted' | 'rejected' | null,
  checks: DatasetVerdicts | null,
): AuditBlock | null {
  const base = verdictInForce(audit, reaudit, decision);
  if (checks === null) return base;
  if (base !== null) return withChecks(base, checks);
  if (!anyFailed(checks)) return null;
  return { passed: false, checks: { ...checks }, model: 'dataset-checks', votes: 1 };
}

/**
 * The verdict the review shows of a row's audit: `displayedVerdict`, and for
 * a row never audited whose dataset checks only warned (a benchmark's own
 * rows), those warnings, so the review can say which item the row holds.
 * The stored verdict columns keep such a row unaudited.
 */
export function reviewedVerdict(
  audit: AuditBlock | null,
  checks: DatasetVerdicts | null,
): AuditBlock | null {
  const shown = displayedVerdict(audit, null, null, checks);
  if (shown !== null || checks === null) return shown;
  if (!Object.values(checks).some((verdict) => verdict.issues.length > 0)) return null;
  return { passed: !anyFailed(checks), checks: { ...checks }, model: 'dataset-checks', votes: 1 };
}

/** The verdict of what the export holds: the reaudit of an accepted fix, else the audit. */
export function verdictInForce(
  audit: AuditBlock | null,
  reaudit: AuditBlock | null,
  decision: 'accepted' | 'rejected' | null,
): AuditBlock | null {
  return decision === 'accepted' && reaudit !== null ? reaudit : audit;
}

/**
 * The grid's columns of a verdict. The score is the lowest of the decided
 * checks: an undecided one (a label nobody could verify, score 0.5) says
 * nothing about the row, and counting it would rank every unverifiable row
 * below real problems when sorting by score.
 */
export function verdictColumns(verdict: AuditBlock | null): VerdictColumns {
  if (!verdict) {
    return {
      passed: null,
      score: null,
      failed_checks: '',
      unverified: 0,
      error_codes: '',
      warning_codes: '',
      warning_checks: '',
    };
  }
  const checks = Object.entries(verdict.checks);
  const failed = checks.filter(([, v]) => v.passed === false).map(([name]) => name);
  const scores = checks.filter(([, v]) => v.passed !== null).map(([, v]) => v.score);
  const issues = checks.flatMap(([name, v]) => v.issues.map((issue) => ({ name, issue })));
  const warnings = issues.filter(({ issue }) => issue.severity === 'warning');
  const errors = issues.filter(({ issue }) => issue.severity !== 'warning');
  return {
    passed: verdict.passed ? 1 : 0,
    score: scores.length === 0 ? null : Math.min(...scores),
    failed_checks: delimited(failed),
    unverified: verdict.label_correct === null || verdict.answer_correct === null ? 1 : 0,
    error_codes: delimited(errors.map(({ issue }) => issue.code)),
    warning_codes: delimited(warnings.map(({ issue }) => issue.code)),
    warning_checks: delimited(warnings.map(({ name }) => name)),
  };
}

/** The audits a fix made on its way (see OperationResult): of the input and of what it accepted. */
export interface FixAudits {
  before: AuditBlock;
  after: AuditBlock | null;
}

export function rowResult(
  operation: Operation,
  previous: RunInputRecord,
  result: ResultSample,
  fixAudits?: FixAudits,
): RowResultRecord {
  const fixOf = (): { fix: FixBlock | null; fixed: Sample | null } => {
    const fix = result.fix ?? null;
    return { fix, fixed: fix && fix.changes.length > 0 ? withoutBlocks(result) : null };
  };
  let audit = parse(previous.audit_json) as AuditBlock | null;
  let fix = parse(previous.fix_json) as FixBlock | null;
  let reaudit = parse(previous.reaudit_json) as AuditBlock | null;
  let fixedJson = previous.fixed_json;
  let decision = previous.decision;
  switch (operation) {
    case 'audit':
      audit = result.audit ?? null;
      break;
    case 'fix': {
      const next = fixOf();
      fix = next.fix;
      fixedJson = json(next.fixed);
      // The fix's own audits: of the accepted candidate (what accepting it gives), and of the
      // input where the row had no audit yet.
      reaudit = next.fixed ? (fixAudits?.after ?? null) : null;
      audit ??= fixAudits?.before ?? null;
      decision = null;
      break;
    }
    case 'refine': {
      const next = fixOf();
      audit = result.audit ?? null;
      fix = next.fix;
      fixedJson = json(next.fixed);
      reaudit = result.reaudit ?? null;
      decision = null;
      break;
    }
  }
  return {
    row_index: previous.row_index,
    audit_json: json(audit),
    fix_json: json(fix),
    reaudit_json: json(reaudit),
    fixed_json: fixedJson,
    ...verdictColumns(
      displayedVerdict(
        audit,
        reaudit,
        decision,
        parse(previous.checks_json) as DatasetVerdicts | null,
      ),
    ),
    flagged: fix?.flagged ? 1 : 0,
    changed: (fix?.changes.length ?? 0) > 0 ? 1 : 0,
    decision,
  };
}
