import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { EngineBackend, FixProposal } from '../backend.ts';
import { inspectedFields, runChecks } from '../checks/index.ts';
import { inspectAhead } from '../checks/text-fields.ts';
import type { SampleVerdicts } from '../checks/types.ts';
import { FIXABLE_CODES, proposeFix } from '../fix/fixers.ts';
import { planAttempts } from '../fix/plan.ts';
import { textRead } from '../read-text.ts';
import { countTextsAhead, countTextTokens, countTokens } from '../tokens.ts';

/**
 * The tokens of the verdict JSON, counted check by check: each piece is short
 * and recurs across a dataset, so the tokenizer's cache answers most of them.
 * (Within a few tokens of counting the whole JSON at once.)
 */
function verdictTokens(verdicts: SampleVerdicts): number {
  let tokens = 2;
  // for-in reads the checks in Object.entries' order, without an array of pairs per sample.
  for (const name in verdicts.checks) {
    const verdict = verdicts.checks[name] as Verdict;
    tokens +=
      cleanVerdictTokens(name, verdict) ?? countTokens(`"${name}":${JSON.stringify(verdict)},`);
  }
  return tokens;
}

/**
 * Most verdicts are `{"passed":…,"score":…,"issues":[]}`: their counts are
 * kept per check name and (passed, score), so a clean sample's verdicts cost
 * no JSON and no string hashing. Anything else (issues, an `agreement`) is
 * counted from its JSON.
 */
const CLEAN_KEYS = ['passed', 'score', 'issues'] as const;
const cleanCounts = new Map<string, Map<number, number>>();

function cleanVerdictTokens(name: string, verdict: Verdict): number | undefined {
  if (verdict.issues.length > 0 || !Number.isFinite(verdict.score)) return undefined;
  // JSON.stringify writes the keys in insertion order (as for-in reads them): only this order counts.
  let keys = 0;
  for (const key in verdict) {
    if (key !== CLEAN_KEYS[keys]) return undefined;
    keys++;
  }
  if (keys !== CLEAN_KEYS.length) return undefined;
  const slot = verdict.score + (verdict.passed === true ? 0 : verdict.passed === false ? 10 : 20);
  let byName = cleanCounts.get(name);
  if (!byName) {
    byName = new Map();
    cleanCounts.set(name, byName);
  }
  let count = byName.get(slot);
  if (count === undefined) {
    count = countTokens(`"${name}":${JSON.stringify(verdict)},`);
    byName.set(slot, count);
  }
  return count;
}

/**
 * The builtin engine: the deterministic checks and fixers of this engine,
 * offline. Usage is what a model would have read and written: the sample's
 * text and the conventions in, the verdicts (or the changes) out. Reached
 * through `builtinBackend` (backend.ts), which loads it at its first use.
 */
export const builtinEngine: EngineBackend = {
  id: 'builtin',

  prepare(samples, ctx) {
    countTextsAhead(samples.map(textRead));
    inspectAhead(samples.flatMap(inspectedFields), ctx.conventions);
  },

  audit(sample, ctx) {
    const verdicts = runChecks(sample, ctx.conventions);
    return Promise.resolve({
      verdicts,
      usage: {
        input_tokens: countTextTokens(textRead(sample)) + countTokens(ctx.conventions.text),
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
        input_tokens: countTextTokens(textRead(sample)) + countTokens(JSON.stringify(issues)),
        output_tokens: countTokens(JSON.stringify(candidate.changes.map((c) => c.value ?? null))),
      },
    });
  },
};
