import { describe, expect, it } from 'vitest';
import { discardDraft, draftChanged, draftOf, keepDraft, type EditDraft } from './edit-drafts.ts';

const base = { text: 'as imported', meta: { id: 1 } };
const edited = (text: string): EditDraft => ({
  base,
  asJson: false,
  draft: { ...base, text },
  json: JSON.stringify(base, null, 2),
});

describe('the edits kept when the review closes unasked', () => {
  it('are kept by dataset and row, the latest of a row replacing the one before', () => {
    keepDraft('a', 1, edited('first'));
    keepDraft('a', 1, edited('second'));
    keepDraft('b', 1, edited('other dataset'));
    expect(draftOf('a', 1)?.draft.text).toBe('second');
    expect(draftOf('b', 1)?.draft.text).toBe('other dataset');
    expect(draftOf('a', 2)).toBeNull();
    discardDraft('a', 1);
    expect(draftOf('a', 1)).toBeNull();
    expect(draftOf('b', 1)).not.toBeNull();
  });

  it('are at most twenty, the least recently kept going first', () => {
    for (let index = 0; index < 25; index++) keepDraft('many', index, edited(`row ${index}`));
    keepDraft('many', 5, edited('row 5 again'));
    const kept = Array.from({ length: 25 }, (_, index) => draftOf('many', index) !== null);
    // b's from before and rows 0-4 went; 5 kept again is now the latest, not the next to go
    expect(kept.filter(Boolean)).toHaveLength(20);
    expect(kept.slice(0, 5).some(Boolean)).toBe(false);
    expect(draftOf('many', 5)?.draft.text).toBe('row 5 again');
    expect(draftOf('many', 24)).not.toBeNull();
  });

  it('say whether they differ from what they build on, as a form or as JSON', () => {
    expect(draftChanged(edited('as imported'))).toBe(false);
    expect(draftChanged(edited('changed'))).toBe(true);
    const json = JSON.stringify({ ...base, text: 'in JSON' }, null, 2);
    expect(draftChanged({ ...edited('as imported'), asJson: true, json })).toBe(true);
    expect(
      draftChanged({ ...edited('changed'), asJson: true, json: JSON.stringify(base, null, 2) }),
    ).toBe(false);
  });
});
