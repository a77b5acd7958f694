import type { AuditBlock, Verdict } from '../../src-shared/schemas/blocks.ts';
import { AUDIT_MODEL_ID } from '../../src-shared/schemas/model-ids.ts';
import type { SampleVerdicts } from './checks/types.ts';
import { choiceLetter } from '../../src-shared/letters.ts';

type Outcome = boolean | null;

/**
 * Merges the passes of an audit into one block. Per check: the majority
 * outcome (a tie between pass and fail is a fail: the cautious reading), the
 * mean score of the votes that agree with it, their issues, and `agreement`,
 * the share of votes that agree (only when there was more than one vote).
 */
export function mergeVotes(passes: SampleVerdicts[]): AuditBlock {
  const first = passes[0];
  if (!first) throw new Error('an audit needs at least one pass');
  const votes = passes.length;
  const checks: Record<string, Verdict> = {};
  if (votes === 1) {
    // One pass (the default) is its own majority: no tally to take. (for-in: the keys in
    // Object.entries' order, without an array of pairs per sample.)
    for (const name in first.checks) {
      const v = first.checks[name] as Verdict;
      checks[name] = {
        passed: v.passed,
        score: Math.round(v.score * 1000) / 1000,
        issues: v.issues,
      };
    }
    return block(first, checks, votes);
  }
  for (const name of Object.keys(first.checks)) {
    const chosen = passes.map((p) => p.chosen?.[name]);
    if (chosen.every((c) => c !== undefined)) {
      checks[name] = mergeByChoice(passes, name, chosen, votes);
      continue;
    }
    const verdicts = passes.map((p) => p.checks[name]).filter((v): v is Verdict => v !== undefined);
    const tally = new Map<Outcome, number>();
    for (const v of verdicts) tally.set(v.passed, (tally.get(v.passed) ?? 0) + 1);
    const [winner] = [...tally].sort((a, b) => b[1] - a[1] || rank(a[0]) - rank(b[0]))[0] ?? [null];
    const agreeing = verdicts.filter((v) => v.passed === winner);
    const score = agreeing.reduce((sum, v) => sum + v.score, 0) / Math.max(1, agreeing.length);
    const merged: Verdict = {
      passed: winner,
      score: Math.round(score * 1000) / 1000,
      issues: agreeing[0]?.issues ?? [],
    };
    if (votes > 1) merged.agreement = Math.round((agreeing.length / verdicts.length) * 1000) / 1000;
    checks[name] = merged;
  }
  return block(first, checks, votes);
}

/**
 * Votes that each chose an option are counted by the option: the verdict is
 * that of the option more than half the votes chose; without such a majority
 * it is undecided. A model that always names the first letter, while each
 * vote shows the choices in another order, picks a different option each
 * time: that is position bias, reported as such, not a confident "wrong".
 */
function mergeByChoice(
  passes: readonly SampleVerdicts[],
  name: string,
  chosen: readonly (number | null)[],
  votes: number,
): Verdict {
  const byChoice = new Map<number | null, Verdict[]>();
  passes.forEach((pass, i) => {
    const verdict = pass.checks[name];
    if (!verdict) return;
    const choice = chosen[i] ?? null;
    byChoice.set(choice, [...(byChoice.get(choice) ?? []), verdict]);
  });
  const [top, agreeing] = [...byChoice].sort((a, b) => b[1].length - a[1].length)[0] ?? [null, []];
  const agreement = Math.round((agreeing.length / votes) * 1000) / 1000;
  if (top !== null && agreeing.length * 2 > votes) {
    const score = agreeing.reduce((sum, v) => sum + v.score, 0) / agreeing.length;
    return {
      passed: agreeing[0]?.passed ?? null,
      score: Math.round(score * 1000) / 1000,
      issues: agreeing[0]?.issues ?? [],
      agreement,
    };
  }
  const picks = [...byChoice]
    .map(
      ([choice, list]) =>
        `${choice === null ? 'none' : `choice ${choiceLetter(choice)}`} ×${list.length}`,
    )
    .join(', ');
  return {
    passed: null,
    score: 0.5,
    issues: [
      {
        code: 'upstream_votes_disagree',
        message:
          `no choice won a majority of the ${votes} votes (${picks}); each vote showed the ` +
          'choices in another order, so the model may be guessing by position',
        path: '/answer_index',
        severity: 'warning',
      },
    ],
    agreement,
  };
}

function block(first: SampleVerdicts, checks: Record<string, Verdict>, votes: number): AuditBlock {
  const merged: AuditBlock = {
    passed: !Object.values(checks).some((v) => v.passed === false),
    checks,
    model: AUDIT_MODEL_ID,
    votes,
  };
  if ('label_correct' in first) merged.label_correct = checks.label_correct?.passed ?? null;
  if ('answer_correct' in first) merged.answer_correct = checks.answer_correct?.passed ?? null;
  return merged;
}

/** Tie-break order: fail before undecided before pass. */
const rank = (outcome: Outcome): number => (outcome === false ? 0 : outcome === null ? 1 : 2);
