import type React from 'react';
import { diffWordsWithSpace } from 'diff';

/** Shows whitespace so that a change of spaces or line breaks is visible, not silent. */
const visible = (text: string): string =>
  text.replace(/ /g, '·').replace(/\t/g, '→').replace(/\n/g, '↵\n').replace(/\r/g, '␍');

/**
 * One side of a word-level diff (via the `diff` package): `before` marks what
 * was removed, `after` what was added. Whitespace-only parts are shown with
 * visible markers.
 */
export function WordDiff({
  before,
  after,
  side,
  onScroll,
  scrollRef,
}: {
  before: string;
  after: string;
  side: 'before' | 'after';
  /** Both sides scroll together: each reports its scroll, the review moves the other. */
  onScroll?: (top: number) => void;
  scrollRef?: React.Ref<HTMLPreElement>;
}) {
  const parts = diffWordsWithSpace(before, after);
  return (
    <pre
      className="diff"
      data-testid={`diff-${side}`}
      ref={scrollRef}
      onScroll={onScroll ? (e) => onScroll(e.currentTarget.scrollTop) : undefined}
    >
      {parts.map((part, i) => {
        if (side === 'before' && part.added) return null;
        if (side === 'after' && part.removed) return null;
        const changed = part.added || part.removed;
        const text = changed && part.value.trim() === '' ? visible(part.value) : part.value;
        return changed ? (
          <mark key={i} className={part.added ? 'added' : 'removed'}>
            {text}
          </mark>
        ) : (
          <span key={i}>{text}</span>
        );
      })}
    </pre>
  );
}

const str = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? ''
      : JSON.stringify(value);

/** The readable text of a sample, field by field, for diffing. */
export function sampleText(sample: Record<string, unknown> | null): string {
  if (!sample) return '';
  switch (sample.task_type) {
    case 'text':
      return str(sample.text);
    case 'multiple_choice': {
      const choices = Array.isArray(sample.choices) ? (sample.choices as unknown[]) : [];
      const answer = Number(sample.answer_index);
      return [
        str(sample.context),
        ...choices.map(
          (c, i) => `${i === answer ? '✓' : ' '} ${String.fromCharCode(65 + i)}. ${str(c)}`,
        ),
      ].join('\n');
    }
    case 'question_answer':
      return `Q: ${str(sample.question)}\nA: ${str(sample.answer)}`;
    case 'conversation': {
      const messages = Array.isArray(sample.messages)
        ? (sample.messages as { role?: unknown; content?: unknown }[])
        : [];
      return messages.map((m) => `[${str(m.role)}] ${str(m.content)}`).join('\n\n');
    }
    default:
      return JSON.stringify(sample, null, 2);
  }
}
