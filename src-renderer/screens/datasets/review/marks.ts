import { diffWordsWithSpace } from 'diff';
import type { Issue } from '../../../../src-shared/schemas/blocks.ts';

/**
 * Ranges of a string to mark: the words a diff added or removed, and the
 * characters an issue locates (`span` at its `path`). Kept as ranges, so the
 * two kinds can overlap and a text is cut once into segments carrying every
 * class that covers them.
 */

export interface Mark {
  start: number;
  end: number;
  className: string;
  title?: string;
}

export interface Segment {
  text: string;
  classes: string[];
  titles: string[];
}

/** The ranges a word diff marks on one side: removed words on `before`, added on `after`. */
export function diffMarks(before: string, after: string, side: 'before' | 'after'): Mark[] {
  const marks: Mark[] = [];
  let at = 0;
  for (const part of diffWordsWithSpace(before, after)) {
    if (side === 'before' && part.added) continue;
    if (side === 'after' && part.removed) continue;
    const end = at + part.value.length;
    if (part.added || part.removed) {
      marks.push({ start: at, end, className: part.added ? 'added' : 'removed' });
    }
    at = end;
  }
  return marks;
}

/** The ranges issues locate in the string at `path` (their `span`). */
export function issueMarks(issues: readonly Issue[], path: string, length: number): Mark[] {
  return issues
    .filter((issue) => issue.path === path && issue.span)
    .map((issue) => {
      const [start, end] = issue.span as [number, number];
      return {
        start: Math.max(0, Math.min(start, length)),
        end: Math.max(0, Math.min(end, length)),
        className: 'issue-span',
        title: `${issue.code}: ${issue.message}`,
      };
    })
    .filter((mark) => mark.end > mark.start);
}

/** The text cut at every mark's ends, each piece with the classes of the marks covering it. */
export function segments(text: string, marks: readonly Mark[]): Segment[] {
  const cuts = new Set([0, text.length]);
  for (const mark of marks) {
    cuts.add(mark.start);
    cuts.add(mark.end);
  }
  const points = [...cuts].filter((p) => p >= 0 && p <= text.length).sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i] as number;
    const end = points[i + 1] as number;
    const covering = marks.filter((m) => m.start <= start && m.end >= end);
    out.push({
      text: text.slice(start, end),
      classes: covering.map((m) => m.className),
      titles: covering.flatMap((m) => (m.title ? [m.title] : [])),
    });
  }
  return out;
}

/** Shows whitespace so that a change of spaces or line breaks is visible, not silent. */
export const visibleSpace = (text: string): string =>
  text.replace(/ /g, '·').replace(/\t/g, '→').replace(/\n/g, '↵\n').replace(/\r/g, '␍');
