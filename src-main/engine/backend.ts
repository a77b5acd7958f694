import type { Sample } from '../../src-shared/schemas/sample.ts';
import type { SampleVerdicts } from './checks/types.ts';
import type { Conventions } from './conventions.ts';
import type { PatchBuilder } from './fix/patch-builder.ts';
import type { TokenUsage } from './usage.ts';

/** What one pass of a model needs besides the sample. */
export interface PassContext {
  conventions: Conventions;
  signal?: AbortSignal | undefined;
  /** Which vote this is (0-based); a backend may vary presentation per vote. */
  vote?: number;
}

export interface AuditPass {
  verdicts: SampleVerdicts;
  usage: TokenUsage;
}

export interface FixProposal {
  /** The candidate and the JSON Patch that makes it. */
  candidate: PatchBuilder;
  usage: TokenUsage;
}

/**
 * A way to run svc-audit-1 and svc-fix-1. The builtin backend is
 * deterministic and offline; an upstream backend (an OpenAI-compatible
 * server) plugs in beside it. The engine around a backend owns votes,
 * attempts, never-worse and usage accounting, so every backend gets them.
 */
export interface EngineBackend {
  readonly id: string;
  /**
   * How many samples the engine may work on at once with this backend
   * (default 1). A remote model server answers many requests in parallel;
   * the deterministic builtin engine gains nothing from it.
   */
  readonly concurrency?: number;
  /**
   * The next samples the engine will work on, in order, before the first of
   * them is audited: a backend may do work for all of them in one go (the
   * builtin one counts their tokens and runs its text rules over them
   * together). Optional, and only a hint: each sample is still audited on its own.
   */
  prepare?(samples: readonly Sample[], ctx: PassContext): void;
  /** One audit pass (one vote) over one sample. */
  audit(sample: Sample, ctx: PassContext): Promise<AuditPass>;
  /**
   * Candidate repair number `attempt` (1-based) for a sample with the given
   * audit, or null when the backend has no further candidate to offer.
   */
  proposeFix(
    sample: Sample,
    audit: SampleVerdicts,
    attempt: number,
    maxAttempts: number,
    ctx: PassContext,
  ): Promise<FixProposal | null>;
}
