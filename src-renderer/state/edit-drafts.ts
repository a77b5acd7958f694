import { setMostRecent } from '../../src-shared/recent-map.ts';

type Sample = Record<string, unknown>;

/** An edit not saved, as its form held it. */
export interface EditDraft {
  /** The sample the edit builds on: kept only while the row still shows it. */
  base: Sample;
  asJson: boolean;
  draft: Sample;
  json: string;
}

/**
 * Edits left open when the review closed without asking (a search or a
 * filter changed, another dataset, the Overview or another screen opened,
 * an import began), by dataset and row: the row opens on its edit again.
 * Only the person discards one (Cancel, Esc twice, leaving the row when
 * asked) or saves it. In memory: a reload of the window loses them.
 */
const drafts = new Map<string, EditDraft>();
/** A person has a few edits open at most; the oldest go past this. */
const MAX_DRAFTS = 20;

const key = (datasetId: string, index: number): string => `${datasetId}:${index}`;

/** Holds the form's state as it is now (the latest goes last). */
export function keepDraft(datasetId: string, index: number, draft: EditDraft): void {
  setMostRecent(drafts, key(datasetId, index), draft, MAX_DRAFTS);
}

export function draftOf(datasetId: string, index: number): EditDraft | null {
  return drafts.get(key(datasetId, index)) ?? null;
}

export function discardDraft(datasetId: string, index: number): void {
  drafts.delete(key(datasetId, index));
}

/** Whether the draft differs from what it builds on (compared only as a row opens). */
export function draftChanged(draft: EditDraft): boolean {
  const base = JSON.stringify(draft.base, null, 2);
  return (draft.asJson ? draft.json : JSON.stringify(draft.draft, null, 2)) !== base;
}
