import type { AuditBlock, FixBlock } from '../../../src-shared/schemas/blocks.ts';
import type { AuditConfig, FixConfig, RefineConfig } from '../../../src-shared/schemas/config.ts';
import type { AuditCounts, FixCounts, RefineCounts } from '../../../src-shared/schemas/native.ts';
import { RESULT_KEYS } from '../../../src-shared/schemas/sample-kinds.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import type { UsageMeter } from '../../engine/usage.ts';

/**
 * What an operation takes and gives back, shared by the code that runs it
 * (operation.ts), the engine pool that runs it in slices (pool/) and every
 * door that calls it. It imports nothing above the engine, so each of them
 * can depend on it without depending on the others.
 */

export type OperationRequest =
  | { operation: 'audit'; samples: Sample[]; config: AuditConfig; conventions?: string | undefined }
  | { operation: 'fix'; samples: Sample[]; config: FixConfig; conventions?: string | undefined }
  | {
      operation: 'refine';
      samples: Sample[];
      config: RefineConfig;
      conventions?: string | undefined;
    };

export type ResultSample = Record<string, unknown> & {
  audit?: AuditBlock;
  fix?: FixBlock;
  reaudit?: AuditBlock | null;
};

export type OperationResult =
  | { operation: 'audit'; data: ResultSample[]; counts: AuditCounts; usage: UsageMeter }
  | {
      operation: 'fix';
      data: ResultSample[];
      counts: FixCounts;
      usage: UsageMeter;
      /**
       * Per sample, the audits the fix made on its way (single passes, already
       * billed): of the input, and of the accepted candidate (null when none
       * was). Not part of the interface's fix result; the app keeps them, so
       * that accepting a fix can show the verdict of what it accepted.
       */
      audits: { before: AuditBlock; after: AuditBlock | null }[];
    }
  | { operation: 'refine'; data: ResultSample[]; counts: RefineCounts; usage: UsageMeter };

export interface OperationOptions {
  backend: EngineBackend;
  signal?: AbortSignal | undefined;
  onProgress?: ((done: number) => void) | undefined;
  /** See RunOptions.prepareAhead (engine/operations.ts); only for a run in the calling thread. */
  prepareAhead?: number | undefined;
}

/** A sample without blocks a previous run may have left on it. */
export function withoutResults(sample: Sample): Sample {
  if (!RESULT_KEYS.some((key) => key in sample)) return sample;
  const copy: Record<string, unknown> = { ...sample };
  for (const key of RESULT_KEYS) Reflect.deleteProperty(copy, key);
  return copy as Sample;
}
