import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { SampleVerdicts } from '../checks/types.ts';

/**
 * Which issues an attempt may repair. Attempts are tried in order until one
 * passes the never-worse test: everything at once; then errors only (the
 * cosmetic repairs may be what made the first candidate worse); then one
 * issue code at a time, most severe first.
 */
export interface FixPlan {
  label: string;
  allows: (code: string) => boolean;
}

export function planAttempts(
  audit: SampleVerdicts,
  maxAttempts: number,
  fixable: (code: string) => boolean = () => true,
): FixPlan[] {
  // Only issues some repair can answer are worth an attempt (and its tokens).
  const issues: Issue[] = Object.values(audit.checks)
    .flatMap((v) => v.issues)
    .filter((issue) => fixable(issue.code));
  if (issues.length === 0) return [];
  const codes = [...new Set(issues.map((i) => i.code))];
  const errorCodes = new Set(issues.filter((i) => i.severity !== 'warning').map((i) => i.code));
  const plans: FixPlan[] = [{ label: 'all', allows: () => true }];
  if (errorCodes.size > 0 && errorCodes.size < codes.length) {
    plans.push({ label: 'errors only', allows: (code) => errorCodes.has(code) });
  }
  const ordered = [...codes].sort((a, b) => Number(errorCodes.has(b)) - Number(errorCodes.has(a)));
  if (ordered.length > 1) {
    for (const code of ordered) plans.push({ label: `only ${code}`, allows: (c) => c === code });
  }
  return plans.slice(0, maxAttempts);
}
