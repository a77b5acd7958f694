import type { AuditBlock } from '../../src-shared/schemas/blocks.ts';

/**
 * The never-worse guarantee: a candidate is acceptable only if no check that
 * passed now fails and no check's score drops. It is worth taking only if it
 * also improves something (a score rises or an issue goes away).
 */
export function isNeverWorse(before: AuditBlock, after: AuditBlock): boolean {
  for (const [name, was] of Object.entries(before.checks)) {
    const now = after.checks[name];
    if (!now) return false;
    if (was.passed === true && now.passed === false) return false;
    if (now.score < was.score - 1e-9) return false;
  }
  return true;
}

export function isImprovement(before: AuditBlock, after: AuditBlock): boolean {
  let issuesBefore = 0;
  let issuesAfter = 0;
  let rose = false;
  for (const [name, was] of Object.entries(before.checks)) {
    const now = after.checks[name];
    issuesBefore += was.issues.length;
    issuesAfter += now?.issues.length ?? 0;
    if (now && now.score > was.score + 1e-9) rose = true;
  }
  return rose || issuesAfter < issuesBefore;
}
