import { useEffect, useState } from 'react';
import type { ImportPreview } from '../../../src-shared/owner/datasets.ts';
import {
  ANSWER_FORMS,
  FieldMapping as FieldMappingSchema,
  MULTI_FIELD_ROLES,
  type AnswerForm,
  type FieldMapping,
  type MappingFields,
  readsAsWords,
} from '../../../src-shared/schemas/mapping.ts';
import { TASK_TYPES, type TaskType } from '../../../src-shared/schemas/sample.ts';

/** What each role reads, in words, beside its field picker. */
const ROLE_HINTS: Record<string, string> = {
  text: 'the text to rate',
  context: 'the question or stem',
  choices: 'one array field, or several fields in order (e.g. A,B,C,D)',
  answer: 'the right choice',
  style: 'qa (a question) or continuation (a stem), or a field holding it',
  question: 'the question',
  messages: 'an array of turns',
  role_key: 'the key of a turn holding its role',
  content_key: 'the key of a turn holding its text',
  roles: "the file's role names: human:user,gpt:assistant",
  system: 'optional system prompt',
  prompt: 'one field, or several joined by a blank line (e.g. instruction,input)',
  response: 'the reply',
};

const FORM_LABELS: Record<AnswerForm, string> = {
  zero_based: '0-based index (0 = first choice)',
  one_based: '1-based index (1 = first choice)',
  letter: 'letter (A = first choice)',
  text: 'text of the right choice',
};

/** Shapes that read rows without a field mapping, in words. */
const SHAPE_READERS: Partial<Record<string, string>> = {
  oasst: 'OpenAssistant message trees are read as trees: each prompt with its replies, by rank.',
  sample: 'The rows are samples already: each carries its task_type and its own fields.',
  truthfulqa_mc:
    'TruthfulQA rows are read by their shape: the question is the context, the answers of mc1_targets the choices, the one marked 1 the answer.',
};

/** Roles shown per task type; conversations show one of their two forms. */
function rolesOf(mapping: FieldMapping): (keyof MappingFields)[] {
  switch (mapping.task_type) {
    case 'text':
      return ['text'];
    case 'multiple_choice':
      return ['context', 'choices', 'answer', 'style'];
    case 'question_answer':
      return ['question', 'answer'];
    case 'conversation':
      return Object.hasOwn(mapping.fields, 'messages')
        ? ['messages', 'role_key', 'content_key', 'roles']
        : ['prompt', 'response', 'system'];
  }
}

/** A first mapping for a task type, from the fields the file has. */
function blankFor(taskType: TaskType, fields: ImportPreview['fields']): FieldMapping {
  // A field that reads as text, else none: the box stays empty and asks (a label or an id taken
  // for the text would preview as mapped and be audited as text).
  const first = fields.find((f) => f.kind === 'string' && readsAsWords(f.sample))?.path ?? '';
  switch (taskType) {
    case 'text':
      return { task_type: 'text', fields: { text: first } };
    case 'multiple_choice': {
      const choices = fields.find((f) => f.kind === 'array')?.path;
      return {
        task_type: 'multiple_choice',
        fields: { context: first, ...(choices ? { choices } : {}), style: 'qa' },
      };
    }
    case 'question_answer':
      return { task_type: 'question_answer', fields: { question: first } };
    case 'conversation':
      return { task_type: 'conversation', fields: { prompt: first } };
  }
}

const asText = (source: MappingFields[keyof MappingFields]): string => {
  if (source === undefined) return '';
  if (typeof source === 'string') return source;
  if (Array.isArray(source)) return source.join(',');
  return Object.entries(source)
    .map(([from, to]) => `${from}:${to}`)
    .join(',');
};

function parseRole(role: keyof MappingFields, text: string): MappingFields[keyof MappingFields] {
  const value = text.trim();
  if (value === '') return undefined;
  if (role === 'roles') {
    return Object.fromEntries(
      value
        .split(',')
        .map((pair) => pair.split(':'))
        .filter((pair) => pair.length === 2 && pair[0] && pair[1])
        .map(([from, to]) => [from?.trim() ?? '', to?.trim() ?? '']),
    );
  }
  if (MULTI_FIELD_ROLES.includes(role) && value.includes(',')) {
    return value.split(',').map((part) => part.trim());
  }
  return value;
}

/** What an incomplete mapping lacks, in words: a role left empty names itself. */
function missingOf(
  issue: { code: string; path: PropertyKey[]; message: string } | undefined,
): string {
  if (!issue) return 'incomplete';
  const role = issue.path[0] === 'fields' ? issue.path[1] : undefined;
  if (typeof role === 'string' && issue.code === 'too_small') {
    return `the field that holds the ${role}`;
  }
  return issue.message;
}

/**
 * The field mapping of an import: a task type, and for each of its roles the
 * file's field(s) that fill it, picked from the file's own fields (dotted
 * paths for nested ones) or typed (several fields comma-separated). Every
 * change maps the preview again.
 */
export function MappingEditor({
  preview,
  disabled,
  onChange,
  onIncomplete,
}: {
  preview: ImportPreview;
  disabled: boolean;
  onChange: (mapping: FieldMapping) => void;
  /** Told what is missing while the mapping on screen is incomplete (null once it is not). */
  onIncomplete: (missing: string | null) => void;
}) {
  // A mapping being filled in (a new task type's roles) stays here until it is complete;
  // the preview's own mapping takes over again once the server has mapped a complete one.
  const [draft, setDraft] = useState<{ of: FieldMapping | null; mapping: FieldMapping } | null>(
    null,
  );
  const current = draft && draft.of === preview.mapping ? draft.mapping : null;
  const mapping = current ?? preview.mapping ?? blankFor('text', preview.fields);
  const checked = FieldMappingSchema.safeParse(mapping);
  const missing = checked.success ? null : missingOf(checked.error.issues[0]);
  useEffect(() => onIncomplete(missing), [missing, onIncomplete]);
  const paths = preview.fields.map((f) => f.path);
  const propose = (next: FieldMapping): void => {
    if (FieldMappingSchema.safeParse(next).success) {
      setDraft(null);
      onChange(next);
    } else setDraft({ of: preview.mapping, mapping: next });
  };
  const set = (role: keyof MappingFields, text: string): void => {
    const fields: MappingFields = { ...mapping.fields, [role]: parseRole(role, text) };
    propose({ ...mapping, fields });
  };
  const conversationForm = Object.hasOwn(mapping.fields, 'messages') ? 'messages' : 'prompt';
  // A shape that is not a field mapping (message trees, rows that are samples) reads the rows
  // itself: no roles to show until the user picks a task type to map fields instead.
  const ownReader =
    current === null && preview.mapping === null && preview.shape !== null
      ? (SHAPE_READERS[preview.shape] ?? null)
      : null;
  if (ownReader !== null) {
    return (
      <fieldset className="mapping" data-testid="mapping" disabled={disabled}>
        <legend>Field mapping</legend>
        <div className="mapping-grid">
          <label>
            Task type
            <select
              aria-label="Task type"
              value=""
              onChange={(e) => propose(blankFor(e.target.value as TaskType, preview.fields))}
            >
              <option value="" disabled>
                read by the shape
              </option>
              {TASK_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type.replace('_', ' ')}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="muted" data-testid="shape-reader">
          {ownReader} Choose a task type to map the fields yourself instead.
        </p>
      </fieldset>
    );
  }

  return (
    <fieldset className="mapping" data-testid="mapping" disabled={disabled}>
      <legend>
        Field mapping{' '}
        <span className="muted">
          {preview.guessed
            ? '(guessed from the field names: check it)'
            : preview.shape && preview.shape !== 'custom'
              ? `(${preview.shape}'s fields; change any to map your own)`
              : ''}
        </span>
      </legend>
      <datalist id="source-fields">
        {paths.map((path) => (
          <option key={path} value={path} />
        ))}
      </datalist>
      <div className="mapping-grid">
        <label>
          Task type
          <select
            aria-label="Task type"
            value={mapping.task_type}
            onChange={(e) => propose(blankFor(e.target.value as TaskType, preview.fields))}
          >
            {TASK_TYPES.map((type) => (
              <option key={type} value={type}>
                {type.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        {mapping.task_type === 'conversation' && (
          <label>
            From
            <select
              aria-label="Conversation from"
              value={conversationForm}
              onChange={(e) => {
                const array = preview.fields.find((f) => f.kind === 'array')?.path;
                propose(
                  e.target.value === 'messages'
                    ? {
                        task_type: 'conversation',
                        fields: { messages: array },
                      }
                    : blankFor('conversation', preview.fields),
                );
              }}
            >
              <option value="messages">a messages array</option>
              <option value="prompt">a prompt and a response</option>
            </select>
          </label>
        )}
        {rolesOf(mapping).map((role) => (
          // Keyed by the value: a mapping the preview sends back (another shape) refills the box.
          <label
            key={`${mapping.task_type}-${role}-${asText(mapping.fields[role])}`}
            title={ROLE_HINTS[role]}
          >
            {role}
            <input
              aria-label={`Role ${role}`}
              list={role === 'roles' || role === 'style' ? undefined : 'source-fields'}
              defaultValue={asText(mapping.fields[role])}
              placeholder={ROLE_HINTS[role]}
              onBlur={(e) => {
                if (e.target.value !== asText(mapping.fields[role])) set(role, e.target.value);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
              }}
            />
          </label>
        ))}
        {mapping.task_type === 'multiple_choice' && (
          <label>
            answer is
            <select
              aria-label="Answer form"
              value={mapping.answer_form ?? ''}
              onChange={(e) => propose({ ...mapping, answer_form: e.target.value as AnswerForm })}
            >
              {mapping.answer_form === undefined && <option value="">not detected</option>}
              {ANSWER_FORMS.map((form) => (
                <option key={form} value={form}>
                  {FORM_LABELS[form]}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {missing && (
        <p className="error-text" data-testid="mapping-incomplete">
          Not mapped yet: {missing}
        </p>
      )}
      <details className="source-fields">
        <summary>
          The file&apos;s fields ({preview.fields.length}); the others stay as metadata
        </summary>
        <table className="table compact" data-testid="source-fields">
          <tbody>
            {preview.fields.map((field) => (
              <tr key={field.path}>
                <td>
                  <code>{field.path}</code>
                </td>
                <td className="muted">{field.kind}</td>
                <td className="clip">{field.sample}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </fieldset>
  );
}
