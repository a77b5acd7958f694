import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type { SampleVerdicts } from '../checks/types.ts';
import type { Conventions } from '../conventions.ts';
import { UNDECIDED_SCORE, verdictOf } from '../verdict.ts';

/**
 * How one audit pass combines the builtin checks (which always run) with an
 * upstream model's judgments. Per check of the builtin pass:
 *
 * 1. No upstream judgment, an undecided one (`passed: null`), or a check the
 *    conventions switch off: the builtin verdict stands as it is.
 * 2. A computed check (`label_correct`, `answer_correct`) the builtin engine
 *    decided (it did the arithmetic): its decision stands, and the upstream's
 *    issues for it are dropped. Undecided (`null`), it takes the upstream's
 *    decision, score and issues.
 * 3. Any other check (the text dimensions, encoding, ...):
 *    - passed: `false` if either says false (a builtin failure always stands;
 *      the upstream can fail what the rules found clean, on meaning), else
 *      `true` (a `null` takes the other side's decision);
 *    - score: the lower of the two decided scores;
 *    - issues: the builtin's, then the upstream's.
 *
 * Upstream issue codes are prefixed `upstream_` (so they never pose as a rule
 * the builtin engine checked or can repair), and an upstream score is
 * computed from its issues as the builtin's are (1 - 0.4 per error - 0.1 per
 * warning), so both scores mean the same thing and the never-worse test
 * compares like with like.
 */

export const COMPUTED_CHECKS: ReadonlySet<string> = new Set(['label_correct', 'answer_correct']);

export const UPSTREAM_PREFIX = 'upstream_';

/** `Grammar Error!` -> `upstream_grammar_error`; an empty code becomes the check's name. */
export function upstreamCode(code: string, check: string): string {
  const base = code
    .toLowerCase()
    .replace(/^upstream_/, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  return UPSTREAM_PREFIX + (base || check);
}

/** The code an upstream issue would have without the prefix (what the conventions name). */
export const baseCode = (code: string): string =>
  code.startsWith(UPSTREAM_PREFIX) ? code.slice(UPSTREAM_PREFIX.length) : code;

/**
 * An upstream judgment made consistent: switched-off codes dropped, no error
 * on a passing check (demoted to warnings), at least one error on a failing
 * one, and the score computed from the issues.
 */
export function upstreamVerdict(
  check: string,
  passed: boolean | null,
  issues: readonly Issue[],
  conventions: Conventions,
  path?: string,
): Verdict {
  if (passed === null) return { passed: null, score: UNDECIDED_SCORE, issues: [] };
  let kept = issues.filter((i) => !conventions.off.has(baseCode(i.code)));
  const droppedAll = kept.length === 0 && issues.length > 0;
  if (passed) kept = kept.map((i) => ({ ...i, severity: 'warning' as const }));
  else if (!kept.some((i) => i.severity !== 'warning')) {
    // Failed with only warnings, or for reasons the conventions allow: keep it honest.
    if (droppedAll) return verdictOf([]);
    kept = [
      ...kept,
      {
        code: upstreamCode(check, check),
        message: `the upstream model failed ${check} without naming an error`,
        ...(path === undefined ? {} : { path }),
        severity: 'error',
      },
    ];
  }
  return verdictOf(kept);
}

export function mergeCheck(name: string, own: Verdict, theirs: Verdict | undefined): Verdict {
  if (!theirs || theirs.passed === null) return own;
  if (COMPUTED_CHECKS.has(name)) return own.passed === null ? theirs : own;
  const passed = own.passed !== false && theirs.passed;
  const score = own.passed === null ? theirs.score : Math.min(own.score, theirs.score);
  return { passed, score, issues: [...own.issues, ...theirs.issues] };
}

/** The rule above over a whole pass; checks the builtin pass does not have are ignored. */
export function mergeVerdicts(
  builtin: SampleVerdicts,
  upstream: Readonly<Record<string, Verdict>>,
  conventions: Conventions,
): SampleVerdicts {
  const checks: Record<string, Verdict> = {};
  for (const [name, own] of Object.entries(builtin.checks)) {
    checks[name] = conventions.off.has(name) ? own : mergeCheck(name, own, upstream[name]);
  }
  const merged: SampleVerdicts = { checks };
  if ('label_correct' in builtin) merged.label_correct = checks.label_correct?.passed ?? null;
  if ('answer_correct' in builtin) merged.answer_correct = checks.answer_correct?.passed ?? null;
  return merged;
}
