import type { Verdict } from '../../../src-shared/schemas/blocks.ts';

/** What one audit pass decides about one sample. */
export interface SampleVerdicts {
  checks: Record<string, Verdict>;
  label_correct?: boolean | null;
  answer_correct?: boolean | null;
}
