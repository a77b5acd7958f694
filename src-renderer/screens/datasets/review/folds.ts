import { diffWordsWithSpace } from 'diff';

/**
 * Unchanged text folded around each change, as a code review does: a few
 * lines or words of context either side of a change stay, the rest becomes
 * "… N unchanged lines" (or words, inside one long line) that opens on a
 * click. A one-space fix in a long text then reads as one short line.
 *
 * The text both sides share is the same string, so a fold hides the same
 * words on both sides: it carries its range in each side's text, and the
 * two sides stay aligned whether it is open or shut.
 */

/** Lines kept after a change (the rest of its line, then this many) and before one. */
export const CONTEXT_LINES = 2;
/** Words kept either side of a change when its lines are long (prose of one paragraph). */
export const CONTEXT_WORDS = 12;
/** Whole lines of context are kept while they hold at most this many words. */
const LINES_WORDS = 40;
/**
 * An element of a row with no fix is folded only beyond this many words: a
 * question of a few sentences folded to its first twelve words hid what a
 * reviewer reads the row for.
 */
export const UNFIXED_WHOLE_WORDS = 150;
/** A fold hides at least this many words: hiding fewer saves nothing. */
export const MIN_FOLDED_WORDS = 8;

export interface Fold {
  /** Its place among the folds of one element, the same on both sides. */
  id: number;
  before: [number, number];
  after: [number, number];
  /** What the fold says it hides. */
  label: string;
  /** Whole lines (shown on a line of its own) or words inside a line (shown in it). */
  unit: 'lines' | 'words';
}

/** One piece of a unified view: text both sides share, or removed, or added. */
export interface UnifiedPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
  /** Where a shared piece starts in the original (its folds are in its coordinates). */
  start: number;
}

const WORD = /\S+/g;

/** Where the first `n` words of `text` from `from` end (the text's end if fewer). */
function afterWords(text: string, from: number, n: number): number {
  WORD.lastIndex = from;
  let end = from;
  for (let i = 0; i < n; i++) {
    const match = WORD.exec(text);
    if (!match) return text.length;
    end = match.index + match[0].length;
  }
  return end;
}

/** Where the last `n` words of `text` before `to` start (0 if fewer). */
function beforeWords(text: string, to: number, n: number): number {
  const starts: number[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match && match.index < to; match = WORD.exec(text)) {
    starts.push(match.index);
  }
  return starts.length <= n ? 0 : (starts[starts.length - n] as number);
}

/** The end of the line `lines` line breaks after `from` (the rest of its line, then `lines`). */
function afterLines(text: string, from: number, lines: number): number {
  let at = from;
  for (let i = 0; i <= lines; i++) {
    const next = text.indexOf('\n', at);
    if (next < 0 || next >= text.length) return text.length;
    at = next + 1;
  }
  return at - 1;
}

/** The start of the line `lines` line breaks before `to`. */
function beforeLines(text: string, to: number, lines: number): number {
  let at = to;
  for (let i = 0; i <= lines; i++) {
    const previous = text.lastIndexOf('\n', at - 1);
    if (previous < 0) return 0;
    at = previous;
  }
  return at + 1;
}

const countWords = (text: string): number => text.match(WORD)?.length ?? 0;

/** What a fold of `text` says: lines when it spans line breaks, else words. */
function labelOf(text: string): Pick<Fold, 'label' | 'unit'> {
  const breaks = text.split('\n').length - 1;
  if (breaks >= 2) return { label: `… ${breaks} unchanged lines`, unit: 'lines' };
  const words = countWords(text);
  return { label: `… ${words} unchanged ${words === 1 ? 'word' : 'words'}`, unit: 'words' };
}

/**
 * The range of a shared stretch of text to hide: all but the context after
 * the change before it and before the change after it. An element with no
 * change at all keeps its head. Null when hiding would save too little.
 */
export function hiddenRange(
  text: string,
  changeBefore: boolean,
  changeAfter: boolean,
): [number, number] | null {
  const keepHead = changeBefore || !changeAfter;
  // Whole lines while they are short, else a few words: a paragraph is one long line.
  const headLines = afterLines(text, 0, CONTEXT_LINES);
  const start = !keepHead
    ? 0
    : countWords(text.slice(0, headLines)) <= LINES_WORDS
      ? headLines
      : afterWords(text, 0, CONTEXT_WORDS);
  const tailLines = beforeLines(text, text.length, CONTEXT_LINES);
  const end = !changeAfter
    ? text.length
    : countWords(text.slice(tailLines)) <= LINES_WORDS
      ? tailLines
      : beforeWords(text, text.length, CONTEXT_WORDS);
  if (end <= start || countWords(text.slice(start, end)) < MIN_FOLDED_WORDS) return null;
  return [start, end];
}

/**
 * The folds of one element shown before and after a fix (`after` null: no
 * fix, the original alone, whole up to UNFIXED_WHOLE_WORDS words, else
 * folded with its head kept). `keep` names
 * ranges of each side no fold may hide (an issue's highlighted characters).
 */
export function foldsOf(
  before: string,
  after: string | null,
  keep: { before: readonly [number, number][]; after: readonly [number, number][] } = {
    before: [],
    after: [],
  },
): Fold[] {
  // A row with no fix has no change to find: it is read whole, unless it is long.
  if (after === null && countWords(before) <= UNFIXED_WHOLE_WORDS) return [];
  const parts = after === null ? [{ value: before }] : diffWordsWithSpace(before, after);
  const folds: Fold[] = [];
  let atBefore = 0;
  let atAfter = 0;
  parts.forEach((part, i) => {
    const length = part.value.length;
    const removed = 'removed' in part && part.removed;
    const added = 'added' in part && part.added;
    if (!removed && !added) {
      const range = hiddenRange(part.value, i > 0, i < parts.length - 1);
      if (range) {
        const fold: Fold = {
          id: folds.length,
          before: [atBefore + range[0], atBefore + range[1]],
          after: [atAfter + range[0], atAfter + range[1]],
          ...labelOf(part.value.slice(range[0], range[1])),
        };
        const overlaps = (ranges: readonly [number, number][], [s, e]: [number, number]) =>
          ranges.some(([a, b]) => a < e && b > s);
        if (!overlaps(keep.before, fold.before) && !overlaps(keep.after, fold.after)) {
          folds.push(fold);
        }
      }
    }
    if (!added) atBefore += length;
    if (!removed) atAfter += length;
  });
  return folds;
}

/** The pieces of a unified view of a change: shared, removed and added, in reading order. */
export function unifiedParts(before: string, after: string): UnifiedPart[] {
  const out: UnifiedPart[] = [];
  let atBefore = 0;
  for (const part of diffWordsWithSpace(before, after)) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    out.push({ kind, text: part.value, start: atBefore });
    if (!part.added) atBefore += part.value.length;
  }
  return out;
}
