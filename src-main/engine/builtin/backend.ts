import type { Issue } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { EngineBackend, FixProposal } from '../backend.ts';
import { runChecks } from '../checks/index.ts';
import type { SampleVerdicts } from '../checks/types.ts';
import { FIXABLE_CODES, proposeFix } from '../fix/fixers.ts';
import { planAttempts } from '../fix/plan.ts';
import { textRead } from '../read-text.ts';
import { countTokens } from '../tokens.ts';

/**
 * The tokens of the verdict JSON, counted check by check: each piece is short
 * and recurs across a dataset, so the tokenizer's cache answers most of them.
 * (Within a few tokens of counting the whole JSON at once.)
 */
function verdictTokens(verdicts: SampleVerdicts): number {
  let tokens = 2;
  for (const [name, verdict] of Object.entries(verdicts.checks)) {
    tokens += countTokens(`"${name}":${JSON.stringify(verdict)},`);
  }
  return tokens;
}

/**
 * The builtin backend: the deterministic checks and fixers of this engine,
 * offline. Usage is what a model would have read and written: the sample's
 * text and the conventions in, the verdicts (or the changes) out.
 */
export const builtinBackend: EngineBackend = {
  id: 'builtin',

  audit(sample, ctx) {
    const verdicts = runChecks(sample, ctx.conventions);
    return Promise.resolve({
      verdicts,
      usage: {
        input_tokens: countTokens(textRead(sample)) + countTokens(ctx.conventions.text),
        output_tokens: verdictTokens(verdicts),
      },
    });
  },

  proposeFix(sample: Sample, audit, attempt, maxAttempts, ctx): Promise<FixProposal | null> {
    const plan = planAttempts(audit, maxAttempts, (code) => FIXABLE_CODES.has(code))[attempt - 1];
    if (!plan) return Promise.resolve(null);
    const candidate = proposeFix(sample, plan, ctx.conventions);
    const issues: Issue[] = Object.values(audit.checks).flatMap((v) => v.issues);
    return Promise.resolve({
      candidate,
      usage: {
        input_tokens: countTokens(textRead(sample)) + countTokens(JSON.stringify(issues)),
        output_tokens: countTokens(JSON.stringify(candidate.changes.map((c) => c.value ?? null))),
      },
    });
  },
};
