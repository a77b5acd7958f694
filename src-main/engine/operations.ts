import { setImmediate as nextTurn } from 'node:timers/promises';
import { SampleError } from './sample-error.ts';
import { AppError } from '../../src-shared/errors.ts';
import type { AuditBlock, FixBlock } from '../../src-shared/schemas/blocks.ts';
import { AUDIT_MODEL_ID, FIX_MODEL_ID } from '../../src-shared/schemas/model-ids.ts';
import type { AuditConfig, FixConfig, RefineConfig } from '../../src-shared/schemas/config.ts';
import type { Sample } from '../../src-shared/schemas/sample.ts';
import type { EngineBackend, PassContext } from './backend.ts';
import type { SampleVerdicts } from './checks/types.ts';
import type { Conventions } from './conventions.ts';
import { isImprovement, isNeverWorse } from './never-worse.ts';
import { UsageMeter } from './usage.ts';
import { mergeVotes } from './votes.ts';

/**
 * The three operations over batches of samples: audit, fix (under
 * never-worse) and refine. Backend-independent: votes, attempts, usage,
 * cancellation and how many samples are in flight at once are handled here
 * for every backend.
 */

export interface RunOptions {
  backend: EngineBackend;
  conventions: Conventions;
  signal?: AbortSignal | undefined;
  /** Called after each sample with the number done so far. */
  onProgress?: ((done: number) => void) | undefined;
  /**
   * How many samples the backend is told of at a time, PREPARE_AHEAD unless
   * given: fewer where the thread's longest hold matters more than its
   * throughput (the server's own thread).
   */
  prepareAhead?: number | undefined;
}

export interface FixOutcome {
  /** The sample as it leaves the fix stage (the accepted candidate, or the input). */
  output: Sample;
  /** Absent for a text sample the fix left untouched. */
  fix: FixBlock | undefined;
  before: AuditBlock;
  /** The audit of the accepted candidate; null when nothing was accepted. */
  after: AuditBlock | null;
}

export interface RefineOutcome extends FixOutcome {
  reaudit: AuditBlock | null;
}

const YIELD_EVERY_MS = 8;

/**
 * How many samples the backend is told of at a time (`prepare`): enough for
 * the work done in one go to pay (the builtin backend counts the tokens and
 * runs the text rules of all of them: 13-45 % off an audit at 128, a little
 * less at 64), few enough to hold the thread only briefly: 128 long
 * conversations take about 30 ms, a few of the pacer's slices.
 */
const PREPARE_AHEAD = 128;

/**
 * Tells the backend of the next PREPARE_AHEAD samples. The read-ahead only
 * warms caches: when it fails, the block goes without it, and the failing
 * sample's own pass meets the same failure and is named by its own index
 * (not the block's first).
 */
function readAhead(
  backend: EngineBackend,
  samples: readonly Sample[],
  index: number,
  ahead: number,
  run: RunOptions,
): void {
  try {
    backend.prepare?.(samples.slice(index, index + ahead), {
      conventions: run.conventions,
      signal: run.signal,
    });
  } catch {
    // Deliberately not rethrown: see above; the sample that fails throws it again.
  }
}

/** Keeps a long batch from starving the event loop (the server, the UI's IPC) and honours cancel. */
class Pacer {
  #last = performance.now();
  readonly signal: AbortSignal | undefined;
  constructor(signal: AbortSignal | undefined) {
    this.signal = signal;
  }
  async tick(): Promise<void> {
    if (this.signal?.aborted) throw new AppError('cancelled', 'the run was cancelled');
    if (performance.now() - this.#last > YIELD_EVERY_MS) {
      await nextTurn();
      this.#last = performance.now();
      if (this.signal?.aborted) throw new AppError('cancelled', 'the run was cancelled');
    }
  }
}

/**
 * Runs `work` over the samples, results in input order. With a backend whose
 * `concurrency` is above 1, up to that many samples are in flight at once
 * (an upstream model server answers requests in parallel); otherwise one at a
 * time. The first failure stops the others: no new sample starts, the ones in
 * flight are aborted through the signal they were given, and once all have
 * settled that first failure is thrown.
 */
async function forEachSample<T>(
  samples: readonly Sample[],
  options: RunOptions,
  work: (sample: Sample, run: RunOptions) => Promise<T>,
): Promise<T[]> {
  const width = Math.max(1, Math.min(samples.length, Math.floor(options.backend.concurrency ?? 1)));
  const controller = new AbortController();
  const outer = options.signal;
  const onAbort = (): void => controller.abort();
  if (outer?.aborted) controller.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  const run: RunOptions = { ...options, signal: width > 1 ? controller.signal : outer };
  const pacer = new Pacer(run.signal);
  const ahead = Math.max(1, Math.floor(options.prepareAhead ?? PREPARE_AHEAD));
  const results: T[] = [];
  let next = 0;
  let done = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < samples.length && !failure) {
      const index = next++;
      try {
        // One sample gains nothing from reading ahead (a /v1 request): it would pay twice.
        if (samples.length > 1 && index % ahead === 0) {
          readAhead(options.backend, samples, index, ahead, run);
        }
        await pacer.tick();
        results[index] = await work(samples[index] as Sample, run);
      } catch (error) {
        failure ??= { error: namingTheSample(error, index, samples.length) };
        controller.abort();
        return;
      }
      done++;
      options.onProgress?.(done);
    }
  };
  try {
    await Promise.all(Array.from({ length: width }, worker));
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
  if (failure) throw failure.error;
  return results;
}

/**
 * An error the engine did not mean to throw (a bug, not a cancellation or an
 * upstream failure, which are AppErrors) still stops the run, since no honest
 * verdict exists for that sample, but it names the sample so it can be found.
 * It stays a plain Error: the edges log it as the bug it is (the CLI prints
 * it with its cause, HTTP answers 500 and logs it).
 */
function namingTheSample(error: unknown, index: number, count: number): unknown {
  return error instanceof AppError || error instanceof SampleError
    ? error
    : new SampleError(index, count, error);
}

async function auditOne(
  sample: Sample,
  votes: number,
  options: RunOptions,
  usage: UsageMeter,
): Promise<AuditBlock> {
  const passes: SampleVerdicts[] = [];
  for (let vote = 0; vote < votes; vote++) {
    const ctx: PassContext = { conventions: options.conventions, signal: options.signal, vote };
    const pass = await options.backend.audit(sample, ctx);
    usage.add(AUDIT_MODEL_ID, pass.usage);
    passes.push(pass.verdicts);
  }
  return mergeVotes(passes);
}

const issueCount = (block: AuditBlock): number =>
  Object.values(block.checks).reduce((n, v) => n + v.issues.length, 0);

async function fixOne(
  sample: Sample,
  before: AuditBlock,
  config: FixConfig,
  options: RunOptions,
  usage: UsageMeter,
): Promise<FixOutcome> {
  const untouched = (attempts: number, triedAndFailed: boolean): FixOutcome => ({
    output: sample,
    fix:
      sample.task_type === 'text' && !triedAndFailed && before.passed
        ? undefined
        : { changes: [], flagged: !before.passed || triedAndFailed, attempts },
    before,
    after: null,
  });
  if (issueCount(before) === 0) return untouched(0, false);

  const verdicts: SampleVerdicts = before;
  let attempts = 0;
  let rejected = false;
  for (let attempt = 1; attempt <= config.max_attempts; attempt++) {
    const ctx: PassContext = { conventions: options.conventions, signal: options.signal };
    const proposal = await options.backend.proposeFix(
      sample,
      verdicts,
      attempt,
      config.max_attempts,
      ctx,
    );
    if (!proposal) break;
    attempts = attempt;
    usage.add(FIX_MODEL_ID, proposal.usage);
    if (proposal.candidate.changes.length === 0) continue;
    const after = await auditOne(proposal.candidate.sample, 1, options, usage);
    if (isNeverWorse(before, after) && isImprovement(before, after)) {
      return {
        output: proposal.candidate.sample,
        fix: { changes: proposal.candidate.changes, flagged: !after.passed, attempts },
        before,
        after,
      };
    }
    rejected = true;
  }
  return untouched(attempts, rejected);
}

export async function auditSamples(
  samples: readonly Sample[],
  config: AuditConfig,
  options: RunOptions,
): Promise<{ blocks: AuditBlock[]; usage: UsageMeter }> {
  const usage = new UsageMeter();
  const blocks = await forEachSample(samples, options, (sample, run) =>
    auditOne(sample, config.votes, run, usage),
  );
  return { blocks, usage };
}

export async function fixSamples(
  samples: readonly Sample[],
  config: FixConfig,
  options: RunOptions,
): Promise<{ outcomes: FixOutcome[]; usage: UsageMeter }> {
  const usage = new UsageMeter();
  const outcomes = await forEachSample(samples, options, async (sample, run) => {
    const before = await auditOne(sample, 1, run, usage);
    return fixOne(sample, before, config, run, usage);
  });
  return { outcomes, usage };
}

export async function refineSamples(
  samples: readonly Sample[],
  config: RefineConfig,
  options: RunOptions,
): Promise<{ outcomes: RefineOutcome[]; usage: UsageMeter }> {
  const usage = new UsageMeter();
  const outcomes = await forEachSample(
    samples,
    options,
    async (sample, run): Promise<RefineOutcome> => {
      const before = await auditOne(sample, config.audit.votes, run, usage);
      const fixed = await fixOne(sample, before, config.fix, run, usage);
      const changed = (fixed.fix?.changes.length ?? 0) > 0;
      const reaudit = changed
        ? await auditOne(fixed.output, config.reaudit.votes, run, usage)
        : null;
      return { ...fixed, reaudit };
    },
  );
  return { outcomes, usage };
}
