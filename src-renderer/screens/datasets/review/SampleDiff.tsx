import { diffArrays } from 'diff';
import { useEffect, useId, useRef, useState } from 'react';
import { choiceLetter } from '../../../../src-shared/letters.ts';
import type { Issue } from '../../../../src-shared/schemas/blocks.ts';
import { SideCell, UnifiedCell, type Cell, type FoldState } from './DiffCell.tsx';
import { foldsOf } from './folds.ts';
import { issueMarks } from './marks.ts';

type Sample = Record<string, unknown>;

/**
 * A sample under review, structured: fields one by one, choices as a list
 * (kept, moved, dropped, added; the labelled one marked ✓ on each side),
 * turns one by one. With a fix, original and fixed sit side by side in one
 * table, so both sides stay aligned on every element; word-level marks only
 * inside a string that changed, unchanged text folded around them (see
 * `folds.ts`); or, on demand, one unified column. Issues are located: an
 * element an issue's `path` points at is outlined, and its `span`, where a
 * rule knows the characters, is highlighted.
 */

interface Row {
  label: string;
  before: Cell | null;
  after: Cell | null;
  /** What happened to the element, in words (moved, dropped, added). */
  note?: string;
}

const str = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : value === undefined || value === null
        ? ''
        : JSON.stringify(value);

const choicesOf = (sample: Sample | null): string[] =>
  Array.isArray(sample?.choices) ? (sample.choices as unknown[]).map(str) : [];

const turnsOf = (sample: Sample | null): { role: string; content: string }[] =>
  Array.isArray(sample?.messages)
    ? (sample.messages as Sample[]).map((m) => ({ role: str(m.role), content: str(m.content) }))
    : [];

/** Elements of two lists aligned: equal ones paired, and a removed run paired with an added one. */
function align<T>(
  before: readonly T[],
  after: readonly T[],
  same: (a: T, b: T) => boolean,
): [number | null, number | null][] {
  const pairs: [number | null, number | null][] = [];
  let i = 0;
  let j = 0;
  const parts = diffArrays([...before], [...after], { comparator: same });
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k];
    if (!part) continue;
    const count = part.count;
    const next = parts[k + 1];
    if (part.removed && next?.added) {
      // Changed elements: paired one by one, the rest dropped or added.
      const added = next.count;
      for (let n = 0; n < Math.max(count, added); n++) {
        pairs.push([n < count ? i + n : null, n < added ? j + n : null]);
      }
      i += count;
      j += added;
      k++;
    } else if (part.removed) {
      for (let n = 0; n < count; n++) pairs.push([i + n, null]);
      i += count;
    } else if (part.added) {
      for (let n = 0; n < count; n++) pairs.push([null, j + n]);
      j += count;
    } else {
      for (let n = 0; n < count; n++) pairs.push([i + n, j + n]);
      i += count;
      j += count;
    }
  }
  return pairs;
}

function rowsOf(before: Sample, after: Sample | null): Row[] {
  const field = (name: string, label = name): Row => ({
    label,
    before: { text: str(before[name]), path: `/${name}` },
    after: after ? { text: str(after[name]), path: `/${name}` } : null,
  });
  switch (before.task_type) {
    case 'multiple_choice': {
      const was = choicesOf(before);
      const now = choicesOf(after);
      const rows: Row[] = [field('context')];
      const pairs = after ? align(was, now, (a, b) => a === b) : was.map((_, i) => [i, null]);
      for (const [i, j] of pairs as [number | null, number | null][]) {
        const beforeCell =
          i === null
            ? null
            : { text: was[i] ?? '', path: `/choices/${i}`, labelled: before.answer_index === i };
        const afterCell =
          j === null || !after
            ? null
            : { text: now[j] ?? '', path: `/choices/${j}`, labelled: after.answer_index === j };
        const note = !after
          ? undefined
          : i === null
            ? 'added'
            : j === null
              ? 'dropped'
              : i !== j
                ? `moved ${choiceLetter(i)} → ${choiceLetter(j)}`
                : undefined;
        const label =
          i !== null && j !== null && i !== j
            ? `${choiceLetter(i)} → ${choiceLetter(j)}`
            : choiceLetter((i ?? j) as number);
        rows.push({ label, before: beforeCell, after: after ? afterCell : null, note });
      }
      if (after && str(before.style) !== str(after.style)) rows.push(field('style'));
      return rows;
    }
    case 'question_answer':
      return [field('question'), field('answer')];
    case 'conversation': {
      const was = turnsOf(before);
      const now = turnsOf(after);
      const pairs = after
        ? align(was, now, (a, b) => a.role === b.role && a.content === b.content)
        : was.map((_, i) => [i, null] as [number, null]);
      return pairs.map(([i, j]) => {
        const a = i === null ? undefined : was[i];
        const b = j === null ? undefined : now[j];
        // Two words on two lines: "turn 2" over "assistant" fits the narrow label column whole.
        const label = `turn ${(i ?? j ?? 0) + 1}\n${a?.role ?? b?.role ?? ''}${
          a && b && a.role !== b.role ? ` → ${b.role}` : ''
        }`;
        return {
          label,
          before: a ? { text: a.content, path: `/messages/${i}/content` } : null,
          after: after && b ? { text: b.content, path: `/messages/${j}/content` } : null,
          note: after ? (i === null ? 'added' : j === null ? 'dropped' : undefined) : undefined,
        };
      });
    }
    default:
      return [field('text')];
  }
}

type DiffView = 'split' | 'unified';
/** The view a reviewer chose last, kept across rows and sessions. */
const VIEW_KEY = 'svc.review.diff-view';
const storedView = (): DiffView =>
  localStorage.getItem(VIEW_KEY) === 'unified' ? 'unified' : 'split';

const spans = (issues: readonly Issue[], cell: Cell | null): [number, number][] =>
  cell ? issueMarks(issues, cell.path, cell.text.length).map((m) => [m.start, m.end]) : [];

export function SampleDiff({
  before,
  after,
  beforeIssues,
  afterIssues,
  headers = ['Original', 'Fixed'],
}: {
  before: Sample;
  after: Sample | null;
  beforeIssues: readonly Issue[];
  afterIssues: readonly Issue[];
  /** What the two sides are (a fix by default; a row and the row it repeats). */
  headers?: readonly [string, string];
}) {
  const radioName = useId();
  const rows = rowsOf(before, after);
  const box = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<DiffView>(storedView);
  const unified = after !== null && view === 'unified';
  // Folds opened, by element and fold (the review mounts a new diff for each row).
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const folds = rows.map((row) =>
    foldsOf(row.before?.text ?? '', after ? (row.after?.text ?? '') : null, {
      before: spans(beforeIssues, row.before),
      after: spans(afterIssues, row.after),
    }),
  );
  // A long sample opens on the element of its first change or issue, its label and the
  // ORIGINAL / FIXED header in sight (the header is sticky; the first element: at the top).
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const first = element.querySelector('.located, .changed')?.closest('tr');
    if (!first) return;
    const header = element.querySelector('thead')?.getBoundingClientRect().height ?? 0;
    const boxTop = element.getBoundingClientRect().top + element.clientTop;
    const { top, bottom } = first.getBoundingClientRect();
    // In sight already (the first element, or one the box shows whole): no scroll. Scrolled
    // anyway, the rows above it were cut to a sliver at the box's top, and the first element's
    // offset of a pixel or two of border slid the header's edge under the sticky header.
    if (bottom - boxTop <= element.clientHeight) return;
    element.scrollTop = Math.max(0, element.scrollTop + top - boxTop - header);
    // Once, as the row opens: a reload of the same row (after a decision) leaves the scroll be.
  }, []);
  const choose = (next: DiffView) => {
    setView(next);
    localStorage.setItem(VIEW_KEY, next);
  };
  return (
    <>
      {after && (
        <div className="diff-view segmented" role="radiogroup" aria-label="Diff view">
          {(['split', 'unified'] as const).map((option) => (
            <label key={option}>
              <input
                type="radio"
                name={radioName}
                checked={view === option}
                onChange={() => choose(option)}
              />
              {option === 'split' ? 'Side by side' : 'Unified'}
            </label>
          ))}
        </div>
      )}
      <div className="sample-diff" ref={box} data-testid="sample-diff">
        <table className="table compact">
          {after && (
            <thead>
              <tr>
                <th className="label-head" />
                {unified ? (
                  <th colSpan={2}>
                    {headers[0]} → {headers[1].toLowerCase()}
                  </th>
                ) : (
                  <>
                    <th>{headers[0]}</th>
                    <th>{headers[1]}</th>
                  </>
                )}
              </tr>
            </thead>
          )}
          <tbody>
            {rows.map((row, i) => {
              const state: FoldState = {
                folds: folds[i] ?? [],
                isOpen: (id) => opened.has(`${i}:${id}`),
                open: (id) => setOpened((was) => new Set([...was, `${i}:${id}`])),
              };
              return (
                <tr key={i} className={row.note ? `row-${row.note.split(' ')[0]}` : undefined}>
                  <th scope="row" className="element-label">
                    {/* Sticky under the headers: the label stays beside its long text. */}
                    <div className="element-label-text">
                      {row.label}
                      {row.note && <div className="muted element-note">{row.note}</div>}
                    </div>
                  </th>
                  {unified ? (
                    <UnifiedCell
                      before={row.before}
                      after={row.after}
                      issues={beforeIssues}
                      state={state}
                    />
                  ) : (
                    <>
                      <SideCell
                        cell={row.before}
                        other={row.after}
                        side="before"
                        issues={beforeIssues}
                        state={state}
                      />
                      {after && (
                        <SideCell
                          cell={row.after}
                          other={row.before}
                          side="after"
                          issues={afterIssues}
                          state={state}
                        />
                      )}
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
