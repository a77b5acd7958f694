import { describe, expect, it } from 'vitest';
import { NOT_VERIFIABLE, undecidedWhy } from './undecided.ts';

describe('undecidedWhy', () => {
  it('names why a label or an answer is undecided', () => {
    expect(undecidedWhy(['answer_correct'])).toBe(NOT_VERIFIABLE);
    expect(undecidedWhy(['label_correct'])).toBe(NOT_VERIFIABLE);
    expect(NOT_VERIFIABLE.short).toBe('not checkable without a model');
  });

  it('says nothing of other checks, nor of none', () => {
    expect(undecidedWhy([])).toBeNull();
    expect(undecidedWhy(['fluency'])).toBeNull();
    // One reason for all or none: a mixed line would claim it for a check it does not fit.
    expect(undecidedWhy(['answer_correct', 'coherence'])).toBeNull();
  });
});
