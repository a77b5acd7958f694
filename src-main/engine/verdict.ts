import type { Issue, Verdict } from '../../src-shared/schemas/blocks.ts';

/**
 * How issues become a verdict. An `error` fails its check; a `warning` only
 * lowers the score. The score falls with each issue (more for errors, a
 * little more for repeated findings), so a fix that removes any issue raises
 * it, which is what the never-worse test compares.
 */

const ERROR_WEIGHT = 0.4;
const WARNING_WEIGHT = 0.1;
/** A check that could not decide sits halfway: neither credit nor blame. */
export const UNDECIDED_SCORE = 0.5;

function issueWeight(issue: Issue, occurrences: number): number {
  const base = issue.severity === 'warning' ? WARNING_WEIGHT : ERROR_WEIGHT;
  return Math.min(base * 1.5, base + 0.02 * Math.max(0, occurrences - 1));
}

export function verdictOf(issues: Issue[], occurrences: number[] = []): Verdict {
  const penalty = issues.reduce(
    (sum, issue, i) => sum + issueWeight(issue, occurrences[i] ?? 1),
    0,
  );
  return {
    passed: !issues.some((issue) => issue.severity !== 'warning'),
    score: Math.round(Math.max(0, 1 - penalty) * 1000) / 1000,
    issues,
  };
}

/** A check whose outcome is known to be unknowable for this sample (e.g. an unverifiable label). */
export function undecided(issues: Issue[] = []): Verdict {
  return { passed: null, score: UNDECIDED_SCORE, issues };
}

/** A decided boolean check such as `label_correct`. */
export function decided(ok: boolean, issue: Issue): Verdict {
  return ok ? { passed: true, score: 1, issues: [] } : { passed: false, score: 0, issues: [issue] };
}
