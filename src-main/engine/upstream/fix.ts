import { CHAT_ROLES, MC_STYLES, type Sample } from '../../../src-shared/schemas/sample.ts';
import type { FixProposal, PassContext } from '../backend.ts';
import { builtinBackend } from '../builtin/backend.ts';
import { runChecks } from '../checks/index.ts';
import type { SampleVerdicts } from '../checks/types.ts';
import type { Conventions } from '../conventions.ts';
import { FIXABLE_CODES, proposeFix } from '../fix/fixers.ts';
import { PatchBuilder } from '../fix/patch-builder.ts';
import { planAttempts, type FixPlan } from '../fix/plan.ts';
import { textRead } from '../read-text.ts';
import { countTokens } from '../tokens.ts';
import type { TokenUsage } from '../usage.ts';
import type { UpstreamClient } from './client.ts';
import { UPSTREAM_PREFIX } from './merge.ts';
import { editableFields, fixPrompt, type FixAnswer, type ProblemLine } from './prompts.ts';

/**
 * Fix candidates through an upstream model. The builtin repairs (decoding,
 * redaction, dropping duplicates, arithmetic...) are deterministic and come
 * first; the model is asked only about what they cannot repair: issues of
 * codes no builtin fixer handles, and the upstream audit's own
 * (`upstream_*`). Its answer is a list of new field values, applied through
 * the same PatchBuilder, so `changes` stay an exact JSON Patch with `old` and
 * `reason`. The engine's attempts and never-worse re-audit apply unchanged.
 *
 * Attempts, in order (the engine stops at the first accepted one):
 * 1. the builtin repairs of its first plan, then the model's edits;
 * 2. the builtin repairs alone (a bad model edit must not cost the sure ones);
 * 3. each further builtin plan, then the model's edits;
 * then the model alone. From the second model call on, the model is told what
 * it proposed before and that it was rejected. When the builtin engine can
 * repair everything there is, the attempts are the builtin engine's own.
 */

export type RejectedProposals = WeakMap<SampleVerdicts, string[]>;

interface Step {
  plan: FixPlan | null;
  upstream: boolean;
}

function steps(plans: readonly FixPlan[]): Step[] {
  const [first, ...rest] = plans;
  if (!first) return [{ plan: null, upstream: true }];
  return [
    { plan: first, upstream: true },
    { plan: first, upstream: false },
    ...rest.map((plan) => ({ plan, upstream: true })),
    { plan: null, upstream: true },
  ];
}

/** Problems for the model: on the candidate as the builtin repairs leave it. */
function problemsFor(
  candidate: Sample,
  audit: SampleVerdicts,
  conventions: Conventions,
): ProblemLine[] {
  const problems: ProblemLine[] = [];
  const now = runChecks(candidate, conventions);
  for (const [check, verdict] of Object.entries(now.checks)) {
    for (const issue of verdict.issues) {
      if (FIXABLE_CODES.has(issue.code)) continue;
      problems.push({ check, code: issue.code, path: issue.path, message: issue.message });
    }
  }
  // The upstream audit's findings cannot be re-checked here; they are passed on as found.
  for (const [check, verdict] of Object.entries(audit.checks)) {
    for (const issue of verdict.issues) {
      if (!issue.code.startsWith(UPSTREAM_PREFIX)) continue;
      problems.push({ check, code: issue.code, path: issue.path, message: issue.message });
    }
  }
  return problems;
}

const wantsModel = (audit: SampleVerdicts, conventions: Conventions): boolean =>
  Object.values(audit.checks).some((v) =>
    v.issues.some((i) => !FIXABLE_CODES.has(i.code) && !conventions.off.has(i.code)),
  );

/** Counted as the builtin backend counts a fix pass: the sample and its issues in, the values out. */
function builtinUsage(sample: Sample, audit: SampleVerdicts, candidate: PatchBuilder): TokenUsage {
  const issues = Object.values(audit.checks).flatMap((v) => v.issues);
  return {
    input_tokens: countTokens(textRead(sample)) + countTokens(JSON.stringify(issues)),
    output_tokens: countTokens(JSON.stringify(candidate.changes.map((c) => c.value ?? null))),
  };
}

/** Each edit names a field of the sample and a value of the right kind; a problem to name, or null. */
export function checkEdits(sample: Sample, answer: FixAnswer): string | null {
  const fields = editableFields(sample);
  for (const { path, value } of answer.edits) {
    const kind = fields.get(path);
    if (kind === undefined) {
      return `"${path}" is not a field you may edit (${[...fields.keys()].join(', ')})`;
    }
    if (kind === 'string' && typeof value !== 'string') return `${path} takes a string`;
    if (path === '/answer_index') {
      const count = sample.task_type === 'multiple_choice' ? sample.choices.length : 0;
      if (typeof value !== 'number' || value < 0 || value >= count) {
        return `/answer_index takes an integer from 0 to ${count - 1}`;
      }
    }
    if (path === '/style' && !(MC_STYLES as readonly unknown[]).includes(value)) {
      return '/style takes "qa" or "continuation"';
    }
    if (path.endsWith('/role') && !(CHAT_ROLES as readonly unknown[]).includes(value)) {
      return `${path} takes "system", "user" or "assistant"`;
    }
  }
  return null;
}

/** The check an edit answers: as the model named it when that is a check, else the issue's at the path. */
function reasonFor(
  edit: FixAnswer['edits'][number],
  audit: SampleVerdicts,
  problems: readonly ProblemLine[],
): string {
  if (edit.reason in audit.checks) return edit.reason;
  const atPath = problems.find((p) => p.path === edit.path);
  if (atPath) return atPath.check;
  const failing = Object.entries(audit.checks).find(([, v]) => v.passed === false);
  return failing?.[0] ?? problems[0]?.check ?? 'upstream';
}

export async function upstreamProposeFix(
  client: UpstreamClient,
  sample: Sample,
  audit: SampleVerdicts,
  attempt: number,
  maxAttempts: number,
  ctx: PassContext,
  rejected: RejectedProposals,
): Promise<FixProposal | null> {
  if (!wantsModel(audit, ctx.conventions)) {
    return builtinBackend.proposeFix(sample, audit, attempt, maxAttempts, ctx);
  }
  const plans = planAttempts(audit, maxAttempts, (code) => FIXABLE_CODES.has(code));
  const step = steps(plans)[attempt - 1] ?? { plan: null, upstream: true };
  const candidate = step.plan
    ? proposeFix(sample, step.plan, ctx.conventions)
    : new PatchBuilder(sample);
  if (!step.upstream) return { candidate, usage: builtinUsage(sample, audit, candidate) };
  const problems = problemsFor(candidate.sample, audit, ctx.conventions);
  if (problems.length === 0) return { candidate, usage: builtinUsage(sample, audit, candidate) };

  const earlier = rejected.get(audit) ?? [];
  const working = candidate.sample;
  const answer = await client.complete(
    {
      ...fixPrompt(working, problems, Object.keys(audit.checks), ctx.conventions, earlier),
      check: (value) => checkEdits(working, value),
    },
    ctx.signal,
  );
  for (const edit of answer.value.edits) {
    candidate.replace(edit.path, edit.value, reasonFor(edit, audit, problems));
  }
  // Remembered for the next attempt, which happens only if this one is rejected.
  const summary = answer.value.edits.length
    ? answer.value.edits
        .map((e) => `${e.path} = ${JSON.stringify(e.value).slice(0, 200)}`)
        .join('; ')
    : 'no edits';
  rejected.set(audit, [...earlier, summary]);
  return { candidate, usage: answer.usage };
}
