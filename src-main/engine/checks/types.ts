import type { Verdict } from '../../../src-shared/schemas/blocks.ts';

/** What one audit pass decides about one sample. */
export interface SampleVerdicts {
  checks: Record<string, Verdict>;
  label_correct?: boolean | null;
  answer_correct?: boolean | null;
  /**
   * Per check, the option this pass chose (an index into the original
   * choices; null: none), where the check's verdict is that choice compared
   * with the label (an upstream model's `label_correct`). Votes are then
   * counted by choice, not by pass/fail (votes.ts). Engine-internal.
   */
  chosen?: Record<string, number | null>;
}
