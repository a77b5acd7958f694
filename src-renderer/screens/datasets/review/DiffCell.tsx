import type React from 'react';
import type { Issue } from '../../../../src-shared/schemas/blocks.ts';
import { unifiedParts, type Fold } from './folds.ts';
import { diffMarks, issueMarks, segments, visibleSpace, type Mark } from './marks.ts';

/**
 * One element's text in the review's diff: a side of it (original or fixed)
 * or both read as one (unified), changed words marked, issues' characters
 * highlighted, unchanged stretches folded until opened.
 */

export interface Cell {
  text: string;
  /** The JSON Pointer of the string in its sample. */
  path: string;
  labelled?: boolean;
}

export interface FoldState {
  folds: readonly Fold[];
  /** Whether a fold (by id) was opened. */
  isOpen: (id: number) => boolean;
  open: (id: number) => void;
}

/** Whether an issue points at this element (the string itself, or the element holding it). */
export const locates = (issue: Issue, path: string): boolean =>
  issue.path !== undefined &&
  (issue.path === path || path.startsWith(`${issue.path}/`) || issue.path.startsWith(`${path}/`));

function FoldButton({ fold, state }: { fold: Fold; state: FoldState }) {
  return (
    <button
      type="button"
      className={`fold fold-${fold.unit}`}
      data-testid="fold"
      title="Show the unchanged text"
      onClick={() => state.open(fold.id)}
    >
      {fold.label}
    </button>
  );
}

/** Marked text, cut at every mark, a shut fold's text replaced by its button. */
function MarkedText({
  text,
  marks,
  offset,
  side,
  state,
}: {
  text: string;
  marks: readonly Mark[];
  /** Where `text` starts in the side's string (folds are in its coordinates). */
  offset: number;
  side: 'before' | 'after';
  state: FoldState;
}) {
  const shut = state.folds.filter((fold) => !state.isOpen(fold.id));
  const cuts: Mark[] = shut.flatMap((fold) => {
    const [start, end] = fold[side];
    return start - offset < text.length && end - offset > 0
      ? [{ start: start - offset, end: end - offset, className: 'folded' }]
      : [];
  });
  const out: React.ReactNode[] = [];
  let at = offset;
  segments(text, [...marks, ...cuts]).forEach((segment, i) => {
    const start = at;
    at += segment.text.length;
    const fold = shut.find((f) => f[side][0] <= start && start < f[side][1]);
    if (fold) {
      // The fold shows once, where its text begins (or where this piece enters it).
      if (start === Math.max(fold[side][0], offset)) {
        out.push(<FoldButton key={i} fold={fold} state={state} />);
      }
      return;
    }
    const classes = segment.classes.filter((c) => c !== 'folded');
    const changed = classes.includes('added') || classes.includes('removed');
    const shown = changed && segment.text.trim() === '' ? visibleSpace(segment.text) : segment.text;
    out.push(
      classes.length === 0 ? (
        <span key={i}>{shown}</span>
      ) : (
        <mark key={i} className={classes.join(' ')} title={segment.titles.join('\n') || undefined}>
          {shown}
        </mark>
      ),
    );
  });
  return <>{out}</>;
}

/** One side of an element: its text, what changed against the other side, its issues. */
export function SideCell({
  cell,
  other,
  side,
  issues,
  state,
}: {
  cell: Cell | null;
  other: Cell | null;
  side: 'before' | 'after';
  issues: readonly Issue[];
  state: FoldState;
}) {
  if (!cell) return <td className="cell-empty">—</td>;
  const located = issues.filter((issue) => locates(issue, cell.path));
  const changed = other !== null && other.text !== cell.text;
  const marks: Mark[] = [
    ...(changed
      ? diffMarks(
          side === 'before' ? cell.text : other.text,
          side === 'before' ? other.text : cell.text,
          side,
        )
      : []),
    ...issueMarks(issues, cell.path, cell.text.length),
  ];
  const classes = [located.length > 0 ? 'located' : '', changed ? 'changed' : ''].filter(Boolean);
  return (
    <td
      className={classes.join(' ')}
      title={located.map((issue) => `${issue.code}: ${issue.message}`).join('\n') || undefined}
      data-path={cell.path}
      data-testid={`diff-${side}`}
    >
      <pre className="cell-text">
        <MarkedText text={cell.text} marks={marks} offset={0} side={side} state={state} />
        {cell.text === '' && <span className="muted">(empty)</span>}
      </pre>
      {cell.labelled && (
        <span className="label-mark" aria-label="labelled answer">
          ✓
        </span>
      )}
    </td>
  );
}

/** Both sides of an element read as one: shared text, then what was removed and added in place. */
export function UnifiedCell({
  before,
  after,
  issues,
  state,
}: {
  before: Cell | null;
  after: Cell | null;
  issues: readonly Issue[];
  state: FoldState;
}) {
  const path = (before ?? after)?.path ?? '';
  const located = issues.some((issue) => locates(issue, path));
  const parts = unifiedParts(before?.text ?? '', after?.text ?? '');
  return (
    <td
      colSpan={2}
      className={located ? 'located' : undefined}
      data-path={path}
      data-testid="diff-unified"
    >
      <pre className="cell-text">
        {parts.map((part, i) =>
          part.kind === 'same' ? (
            <MarkedText
              key={i}
              text={part.text}
              marks={[]}
              offset={part.start}
              side="before"
              state={state}
            />
          ) : (
            <mark key={i} className={part.kind}>
              {part.text.trim() === '' ? visibleSpace(part.text) : part.text}
            </mark>
          ),
        )}
        {before?.text === '' && after?.text === '' && <span className="muted">(empty)</span>}
      </pre>
      {(after ?? before)?.labelled && (
        <span className="label-mark" aria-label="labelled answer">
          ✓
        </span>
      )}
    </td>
  );
}
