import { AppError } from '../../../src-shared/errors.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';
import { textRead } from '../../engine/read-text.ts';
import { countTokens } from '../../engine/tokens.ts';
import type { ModelUsage } from '../../engine/usage.ts';
import { CONTEXT_LENGTH_TOKENS } from './catalog.ts';
import { chargeMicro, tokenCostMicro } from './money.ts';
import type { OperationRequest } from '../runs/contract.ts';
import type { CountTokensTask } from '../file-pass/task-types.ts';
import { runWhereItFits } from '../runs/pool/pooled.ts';

/**
 * The cost of a request before any work, as an upper bound: every pass the
 * config allows (votes audits, max_attempts fix passes each with its
 * re-audit) at generous output sizes. Also where samples larger than the
 * models' context are refused.
 */

/** An audit pass writes at most this much beyond twice what it reads (a verdict per check, quotes). */
const AUDIT_OUTPUT_OVERHEAD = 512;
const FIX_OUTPUT_OVERHEAD = 64;

export interface Estimate {
  usage: Record<'svc-audit-1' | 'svc-fix-1', Pick<ModelUsage, 'input_tokens' | 'output_tokens'>>;
  /** What the request may be charged at most, in micro-USD (rounded up to the cent). */
  maxChargeMicro: number;
  /** The largest sample, in tokens. */
  largestSampleTokens: number;
}

export function sampleTokens(samples: readonly Sample[]): number[] {
  return samples.map((sample) => countTokens(textRead(sample)));
}

/**
 * `sampleTokens` on an engine worker for a request holding much text (the
 * tokenizer reads ~50 ms a MB, which held the server's thread), else here.
 */
export function requestTokens(
  samples: readonly Sample[],
  signal?: AbortSignal,
): Promise<number[]> | number[] {
  const task = (): CountTokensTask => ({ kind: 'count-tokens', samples: [...samples] });
  return runWhereItFits(samples, task, () => sampleTokens(samples), signal);
}

/** Refuses any sample over the context length, naming the first one (422 native, 413 on /v1). */
export function checkContext(tokens: readonly number[], pointerPrefix = '/data'): void {
  const index = tokens.findIndex((t) => t > CONTEXT_LENGTH_TOKENS);
  if (index !== -1) {
    throw new AppError(
      'context_length_exceeded',
      `sample ${index} is ${tokens[index]} tokens; the models take at most ${CONTEXT_LENGTH_TOKENS} per sample`,
      { param: `${pointerPrefix}/${index}` },
    );
  }
}

export function estimate(
  request: OperationRequest,
  tokens: readonly number[],
  settings: Settings,
): Estimate {
  const conventions = request.conventions ? countTokens(request.conventions) : 0;
  const passes = (() => {
    switch (request.operation) {
      case 'audit':
        return { audits: request.config.votes, fixes: 0 };
      case 'fix':
        return { audits: 1 + request.config.max_attempts, fixes: request.config.max_attempts };
      case 'refine':
        return {
          audits:
            request.config.audit.votes +
            request.config.fix.max_attempts +
            request.config.reaudit.votes,
          fixes: request.config.fix.max_attempts,
        };
    }
  })();
  const usage: Estimate['usage'] = {
    'svc-audit-1': { input_tokens: 0, output_tokens: 0 },
    'svc-fix-1': { input_tokens: 0, output_tokens: 0 },
  };
  for (const t of tokens) {
    usage['svc-audit-1'].input_tokens += passes.audits * (t + conventions);
    usage['svc-audit-1'].output_tokens += passes.audits * (2 * t + AUDIT_OUTPUT_OVERHEAD);
    usage['svc-fix-1'].input_tokens += passes.fixes * (2 * t + AUDIT_OUTPUT_OVERHEAD);
    usage['svc-fix-1'].output_tokens += passes.fixes * (2 * t + FIX_OUTPUT_OVERHEAD);
  }
  return {
    usage,
    maxChargeMicro: chargeMicro(tokenCostMicro(usage, settings.rates)),
    largestSampleTokens: Math.max(0, ...tokens),
  };
}
