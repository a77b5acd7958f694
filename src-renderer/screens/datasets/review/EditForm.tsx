import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { choiceLetter } from '../../../../src-shared/letters.ts';
import { parseJsonExact } from '../../../../src-shared/exact-json.ts';
import { draftChanged, type EditDraft } from '../../../state/edit-drafts.ts';

type Sample = Record<string, unknown>;

/** How the review leaves the form: by Esc, or for another row (or none), each asking first. */
export interface EditGuard {
  /** Esc: closes the form, unless it holds changes not yet asked about. */
  escape: () => void;
  /** The row is left: true if the form may go (no changes, or asked once already). */
  leave: () => boolean;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Editing a sample by hand: a form per task type (the text; the context,
 * the choices with the right one chosen, the style; the question and the
 * answer; the turns with their roles), or its JSON for anything else. Save
 * hands the whole sample back (metadata kept); the review re-audits it.
 * Esc with unsaved changes asks first: a second Esc discards them (the
 * Cancel button discards at once: it says so). Going to another row asks
 * the same way: the form was closed, and the changes lost, without a word.
 */
export function EditForm({
  sample,
  from,
  busy,
  onSave,
  onCancel,
  guardRef,
  kept = null,
  onDraft,
}: {
  sample: Sample;
  /** What `sample` is, said above the form: the edit builds on it. */
  from: string;
  busy: boolean;
  onSave: (sample: Sample) => void;
  onCancel: () => void;
  /** Set to what Esc and leaving the row do here, for the review to ask (focus outside the form). */
  guardRef?: RefObject<EditGuard | null>;
  /** An edit of this row left unsaved earlier: the form resumes it if it builds on `sample`. */
  kept?: EditDraft | null;
  /** Told the form's state at each change, for the review to keep it if it closes unasked. */
  onDraft?: (draft: EditDraft) => void;
}) {
  // Read once, as the form opens: compared by value, since the row is read again since.
  const [keptAtOpen] = useState(kept);
  const [resumed] = useState(() =>
    kept !== null && JSON.stringify(kept.base) === JSON.stringify(sample) ? kept : null,
  );
  const [draft, setDraft] = useState<Sample>(() => resumed?.draft ?? structuredClone(sample));
  const [asJson, setAsJson] = useState(() => resumed?.asJson ?? false);
  const [json, setJson] = useState(() => resumed?.json ?? JSON.stringify(sample, null, 2));
  useEffect(() => {
    onDraft?.({ base: sample, asJson, draft, json });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the form's own state: a row read again or a new callback is no change
  }, [asJson, draft, json]);
  const [jsonError, setJsonError] = useState<string | null>(null);
  /** Asked whether to discard unsaved changes: by Esc, or by leaving the row; null: not asked. */
  const [discardAsked, setDiscardAsked] = useState<'escape' | 'leave' | null>(null);
  const set = (key: string, value: unknown) => {
    setDraft({ ...draft, [key]: value });
    setDiscardAsked(null);
  };
  const formRef = useRef<HTMLFormElement>(null);
  // Opened (or switched to JSON) below a long review, the form was out of sight at 1280x720:
  // `e` seemed to do nothing. Its top comes into view, and with it its fields and, mostly, Save.
  useEffect(() => {
    formRef.current?.scrollIntoView({ block: 'start' });
  }, [asJson]);

  // Compared only when Esc is pressed: a keystroke in a large row's form costs nothing more.
  const unchanged = () => !draftChanged({ base: sample, asJson, draft, json });
  /** Whether the form may go by `how`; if not, asks (the next try goes). */
  const mayGo = (how: 'escape' | 'leave'): boolean => {
    // Being saved: nothing is lost by leaving the row (the save goes on and lands in its row).
    if ((how === 'leave' && busy) || discardAsked !== null || unchanged()) return true;
    setDiscardAsked(how);
    return false;
  };
  const escape = () => {
    if (mayGo('escape')) onCancel();
  };
  const leave = () => mayGo('leave');
  // Before the next key can come (see ReviewPanel's keys): never the Esc of an older draft.
  useLayoutEffect(() => {
    if (!guardRef) return;
    guardRef.current = { escape, leave };
    return () => {
      guardRef.current = null;
    };
  });

  const save = () => {
    if (!asJson) return onSave(draft);
    try {
      const parsed = parseJsonExact(json);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        setJsonError('a sample is a JSON object');
        return;
      }
      onSave(parsed as Sample);
    } catch (error) {
      setJsonError((error as Error).message);
    }
  };

  const field = (key: string, label: string, rows = 4) => (
    <label className="edit-field">
      {label}
      <textarea
        aria-label={`Edit ${label}`}
        rows={rows}
        value={str(draft[key])}
        onChange={(e) => set(key, e.target.value)}
      />
    </label>
  );

  const choices = Array.isArray(draft.choices) ? (draft.choices as unknown[]).map(str) : [];
  const messages = Array.isArray(draft.messages) ? (draft.messages as Sample[]) : [];
  const form = (() => {
    switch (draft.task_type) {
      case 'text':
        return field('text', 'text', 8);
      case 'question_answer':
        return (
          <>
            {field('question', 'question')}
            {field('answer', 'answer', 6)}
          </>
        );
      case 'multiple_choice':
        return (
          <>
            {field('context', 'context', 3)}
            <fieldset className="edit-choices">
              <legend>Choices (the right one checked)</legend>
              {choices.map((choice, i) => (
                <div key={i} className="edit-choice">
                  <input
                    type="radio"
                    name="answer"
                    aria-label={`Choice ${choiceLetter(i)} is right`}
                    checked={draft.answer_index === i}
                    onChange={() => set('answer_index', i)}
                  />
                  <b>{choiceLetter(i)}</b>
                  <input
                    aria-label={`Edit choice ${choiceLetter(i)}`}
                    value={choice}
                    onChange={(e) =>
                      set(
                        'choices',
                        choices.map((c, j) => (j === i ? e.target.value : c)),
                      )
                    }
                  />
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Remove choice ${choiceLetter(i)}`}
                    onClick={() => {
                      const answer = Number(draft.answer_index);
                      setDraft({
                        ...draft,
                        choices: choices.filter((_, j) => j !== i),
                        answer_index: answer > i ? answer - 1 : answer,
                      });
                    }}
                  >
                    remove
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="button small"
                onClick={() => set('choices', [...choices, ''])}
              >
                Add a choice
              </button>
            </fieldset>
            <label className="edit-field inline">
              style{' '}
              <select
                aria-label="Edit style"
                value={str(draft.style) || 'qa'}
                onChange={(e) => set('style', e.target.value)}
              >
                <option value="qa">qa (a question)</option>
                <option value="continuation">continuation (a stem)</option>
              </select>
            </label>
          </>
        );
      case 'conversation':
        return (
          <fieldset className="edit-turns">
            <legend>Turns</legend>
            {messages.map((message, i) => (
              <div key={i} className="edit-turn">
                <select
                  aria-label={`Role of turn ${i + 1}`}
                  value={str(message.role)}
                  onChange={(e) =>
                    set(
                      'messages',
                      messages.map((m, j) => (j === i ? { ...m, role: e.target.value } : m)),
                    )
                  }
                >
                  {[
                    'system',
                    'user',
                    'assistant',
                    ...(['system', 'user', 'assistant'].includes(str(message.role))
                      ? []
                      : [str(message.role)]),
                  ].map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
                <textarea
                  aria-label={`Edit turn ${i + 1}`}
                  rows={3}
                  value={str(message.content)}
                  onChange={(e) =>
                    set(
                      'messages',
                      messages.map((m, j) => (j === i ? { ...m, content: e.target.value } : m)),
                    )
                  }
                />
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Remove turn ${i + 1}`}
                  onClick={() =>
                    set(
                      'messages',
                      messages.filter((_, j) => j !== i),
                    )
                  }
                >
                  remove
                </button>
              </div>
            ))}
            <button
              type="button"
              className="button small"
              onClick={() => set('messages', [...messages, { role: 'user', content: '' }])}
            >
              Add a turn
            </button>
          </fieldset>
        );
      default:
        return null;
    }
  })();

  return (
    <form
      ref={formRef}
      className="edit-form"
      data-testid="edit-form"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          escape();
        }
      }}
    >
      <div className="edit-mode">
        <span className="muted" data-testid="edit-from">
          {from}
        </span>
        <label className="chip">
          <input
            type="checkbox"
            checked={asJson}
            onChange={(e) => {
              if (e.target.checked) setJson(JSON.stringify(draft, null, 2));
              setJsonError(null);
              setAsJson(e.target.checked);
            }}
          />{' '}
          as JSON
        </label>
      </div>
      {keptAtOpen !== null && (
        <p className="muted" role="status" data-testid="edit-resumed">
          {resumed
            ? 'Your edit, not saved yet, as you left it.'
            : 'Your unsaved edit was of this row as it was before: the row has changed since, so it is gone.'}
        </p>
      )}
      {asJson || form === null ? (
        <label className="edit-field">
          JSON
          <textarea
            aria-label="Edit as JSON"
            rows={14}
            value={json}
            onChange={(e) => {
              setJson(e.target.value);
              setJsonError(null);
              setDiscardAsked(null);
            }}
          />
        </label>
      ) : (
        form
      )}
      {jsonError && <p className="error-text">{jsonError}</p>}
      {discardAsked !== null && (
        <p className="warning-text" role="status" data-testid="edit-discard">
          {discardAsked === 'escape'
            ? 'Your changes are not saved. Esc again discards them; Save keeps them.'
            : 'Your changes are not saved. Leaving the row again discards them; Save keeps them.'}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Re-auditing…' : 'Save and re-audit'}
        </button>
      </div>
    </form>
  );
}
