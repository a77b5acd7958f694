import { diffArrays } from 'diff';
import { useEffect, useRef } from 'react';
import { choiceLetter } from '../../../../src-shared/letters.ts';
import type { Issue } from '../../../../src-shared/schemas/blocks.ts';
import { diffMarks, issueMarks, segments, visibleSpace, type Mark } from './marks.ts';

type Sample = Record<string, unknown>;

/**
 * A sample under review, structured: fields one by one, choices as a list
 * (kept, moved, dropped, added; the labelled one marked ✓ on each side),
 * turns one by one. With a fix, original and fixed sit side by side in one
 * table, so both sides stay aligned on every element; word-level marks only
 * inside a string that changed. Issues are located: an element an issue's
 * `path` points at is outlined, and its `span`, where a rule knows the
 * characters, is highlighted. Opens scrolled to the first issue or change.
 */

interface Cell {
  text: string;
  /** The JSON Pointer of the string in its sample. */
  path: string;
  labelled?: boolean;
}

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

/** Whether an issue points at this element (the string itself, or the element holding it). */
const locates = (issue: Issue, path: string): boolean =>
  issue.path !== undefined &&
  (issue.path === path || path.startsWith(`${issue.path}/`) || issue.path.startsWith(`${path}/`));

function CellView({
  cell,
  other,
  side,
  issues,
}: {
  cell: Cell | null;
  other: Cell | null;
  side: 'before' | 'after';
  issues: readonly Issue[];
}) {
  if (!cell) return <td className="cell-empty">—</td>;
  const located = issues.filter((issue) => locates(issue, cell.path));
  const marks: Mark[] = [
    ...(other && other.text !== cell.text
      ? diffMarks(
          side === 'before' ? cell.text : other.text,
          side === 'before' ? other.text : cell.text,
          side,
        )
      : []),
    ...issueMarks(issues, cell.path, cell.text.length),
  ];
  const classes = [
    located.length > 0 ? 'located' : '',
    other && other.text !== cell.text ? 'changed' : '',
  ].filter(Boolean);
  return (
    <td
      className={classes.join(' ')}
      title={located.map((issue) => `${issue.code}: ${issue.message}`).join('\n') || undefined}
      data-path={cell.path}
      data-testid={`diff-${side}`}
    >
      <pre className="cell-text">
        {segments(cell.text, marks).map((segment, i) => {
          const changed = segment.classes.includes('added') || segment.classes.includes('removed');
          const text =
            changed && segment.text.trim() === '' ? visibleSpace(segment.text) : segment.text;
          return segment.classes.length === 0 ? (
            <span key={i}>{text}</span>
          ) : (
            <mark
              key={i}
              className={segment.classes.join(' ')}
              title={segment.titles.join('\n') || undefined}
            >
              {text}
            </mark>
          );
        })}
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

export function SampleDiff({
  before,
  after,
  beforeIssues,
  afterIssues,
}: {
  before: Sample;
  after: Sample | null;
  beforeIssues: readonly Issue[];
  afterIssues: readonly Issue[];
}) {
  const rows = rowsOf(before, after);
  const table = useRef<HTMLDivElement>(null);
  // Long samples open on the first issue or change, both sides aligned on it (one table).
  useEffect(() => {
    // The most precise place first: a highlighted span or changed words, else the element.
    const first =
      table.current?.querySelector('mark.issue-span, mark.added, mark.removed') ??
      table.current?.querySelector('.located, .changed');
    if (first && table.current) {
      const box = table.current;
      const top =
        (first as HTMLElement).getBoundingClientRect().top - box.getBoundingClientRect().top;
      box.scrollTop += Math.max(0, top - 24);
    }
  }, [before, after]);
  return (
    <div className="sample-diff" ref={table} data-testid="sample-diff">
      <table className="table compact">
        {after && (
          <thead>
            <tr>
              <th />
              <th>Original</th>
              <th>Fixed</th>
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} className={row.note ? `row-${row.note.split(' ')[0]}` : undefined}>
              <th scope="row" className="element-label">
                {row.label}
                {row.note && <div className="muted element-note">{row.note}</div>}
              </th>
              <CellView cell={row.before} other={row.after} side="before" issues={beforeIssues} />
              {after && (
                <CellView cell={row.after} other={row.before} side="after" issues={afterIssues} />
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
