import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import { parseConventions } from '../../engine/conventions.ts';
import { auditSamples, fixSamples, refineSamples } from '../../engine/operations.ts';
import {
  withoutResults,
  type OperationOptions,
  type OperationRequest,
  type OperationResult,
  type ResultSample,
} from './contract.ts';
import { mergeResults } from './pool/merge.ts';
import { runPooled, shouldPool } from './pool/pooled.ts';

/**
 * One operation over a list of samples, as every door calls it (native
 * routes, /v1, the CLI, the app): runs the engine and assembles the samples
 * with their result blocks and the counts of the envelope. A large enough
 * batch on the builtin engine runs in slices on the engine's worker threads
 * (pool/), with the same result as here. What it takes and gives is in
 * contract.ts.
 */

export async function runOperation(
  request: OperationRequest,
  options: OperationOptions,
): Promise<OperationResult> {
  if (shouldPool(request, options.backend)) {
    return runPooled(request, options, runOperationInThread);
  }
  return runOperationInThread(request, options);
}

/** The operation run here, in the calling thread (an engine worker runs its slices so). */
export async function runOperationInThread(
  request: OperationRequest,
  options: OperationOptions,
): Promise<OperationResult> {
  const samples = request.samples.map(withoutResults);
  const run = {
    backend: options.backend,
    conventions: parseConventions(request.conventions),
    signal: options.signal,
    onProgress: options.onProgress,
    prepareAhead: options.prepareAhead,
  };
  switch (request.operation) {
    case 'audit': {
      const { blocks, usage } = await auditSamples(samples, request.config, run);
      const data = samples.map((sample, i) => ({ ...sample, audit: blocks[i] as AuditBlock }));
      const passed = blocks.filter((b) => b.passed).length;
      return {
        operation: 'audit',
        data,
        counts: { samples: samples.length, passed, failed: samples.length - passed },
        usage,
      };
    }
    case 'fix': {
      const { outcomes, usage } = await fixSamples(samples, request.config, run);
      const data = outcomes.map((o) => (o.fix ? { ...o.output, fix: o.fix } : { ...o.output }));
      const changed = outcomes.filter((o) => (o.fix?.changes.length ?? 0) > 0).length;
      return {
        operation: 'fix',
        data,
        counts: {
          samples: samples.length,
          changed,
          unchanged: samples.length - changed,
          flagged: outcomes.filter((o) => o.fix?.flagged).length,
        },
        usage,
        audits: outcomes.map((o) => ({ before: o.before, after: o.after })),
      };
    }
    case 'refine': {
      const { outcomes, usage } = await refineSamples(samples, request.config, run);
      const data = outcomes.map((o) => {
        const out: ResultSample = { ...o.output, audit: o.before };
        if (o.fix) out.fix = o.fix;
        out.reaudit = o.reaudit;
        return out;
      });
      return {
        operation: 'refine',
        data,
        counts: {
          samples: samples.length,
          failed_before: outcomes.filter((o) => !o.before.passed).length,
          changed: outcomes.filter((o) => (o.fix?.changes.length ?? 0) > 0).length,
          flagged: outcomes.filter((o) => o.fix?.flagged).length,
          failed_after: outcomes.filter((o) => !(o.reaudit ?? o.before).passed).length,
        },
        usage,
      };
    }
  }
}

/**
 * Runs a large request as consecutive batches, in order, and merges them into
 * one result (counts added, usage merged), as if it had run at once.
 */
export async function runInBatches(
  request: OperationRequest,
  batchSize: number | undefined,
  options: OperationOptions,
): Promise<OperationResult> {
  if (batchSize === undefined || request.samples.length <= batchSize) {
    return runOperation(request, options);
  }
  const parts: OperationResult[] = [];
  for (let start = 0; start < request.samples.length; start += batchSize) {
    parts.push(
      await runOperation(
        { ...request, samples: request.samples.slice(start, start + batchSize) },
        {
          ...options,
          onProgress: options.onProgress && ((done) => options.onProgress?.(start + done)),
        },
      ),
    );
  }
  return mergeResults(parts);
}
