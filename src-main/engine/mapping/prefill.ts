import {
  readsAsWords,
  type FieldMapping,
  type MappingFields,
  type SourceField,
} from '../../../src-shared/schemas/mapping.ts';
import type { ShapeId } from '../shapes/types.ts';

/**
 * The built-in shapes as field mappings (what the import preview pre-fills
 * for a detected shape), and a first guess for files no shape matches.
 */

const SHAPE_MAPPINGS: Partial<Record<ShapeId, FieldMapping>> = {
  gsm8k: { task_type: 'question_answer', fields: { question: 'question', answer: 'answer' } },
  mmlu: {
    task_type: 'multiple_choice',
    fields: { context: 'question', choices: 'choices', answer: 'answer', style: 'qa' },
  },
  arc: {
    task_type: 'multiple_choice',
    fields: { context: 'question', choices: 'choices.text', answer: 'answerKey', style: 'qa' },
    answer_form: 'letter',
  },
  commonsenseqa: {
    task_type: 'multiple_choice',
    fields: { context: 'question', choices: 'choices.text', answer: 'answerKey', style: 'qa' },
    answer_form: 'letter',
  },
  hellaswag: {
    task_type: 'multiple_choice',
    fields: { context: 'ctx', choices: 'endings', answer: 'label', style: 'continuation' },
    answer_form: 'zero_based',
  },
  alpaca: {
    task_type: 'conversation',
    fields: { prompt: ['instruction', 'input'], response: 'output' },
  },
  sharegpt: {
    task_type: 'conversation',
    fields: {
      messages: 'conversations',
      role_key: 'from',
      content_key: 'value',
      roles: { human: 'user', gpt: 'assistant', system: 'system' },
    },
  },
  openai_chat: { task_type: 'conversation', fields: { messages: 'messages' } },
  text: { task_type: 'text', fields: { text: 'text' } },
};

/**
 * The mapping a built-in shape stands for, or null for the shapes no mapping
 * can say (TruthfulQA's target dictionaries, OpenAssistant's trees, rows
 * that are samples already).
 */
export function shapeMapping(shape: ShapeId): FieldMapping | null {
  const mapping = SHAPE_MAPPINGS[shape];
  return mapping ? structuredClone(mapping) : null;
}

/** Field names, most telling first, by role. Compared without case, `_`, `-` or spaces. */
const NAMES = {
  text: ['text', 'content', 'document', 'body', 'passage', 'original', 'sentence', 'raw'],
  question: ['question', 'query', 'problem', 'prompt', 'input', 'instruction', 'q'],
  answer: ['answer', 'response', 'output', 'completion', 'solution', 'target', 'a'],
  choices: ['choices', 'options', 'endings', 'candidates', 'answers', 'alternatives'],
  label: ['answer', 'label', 'answerkey', 'correct', 'target', 'gold', 'answeridx', 'answerindex'],
  messages: ['messages', 'conversations', 'conversation', 'dialog', 'dialogue', 'chat', 'turns'],
  instruction: ['instruction', 'prompt', 'question', 'query'],
  input: ['input', 'context'],
  response: ['response', 'output', 'completion', 'answer', 'chosen'],
  system: ['system', 'systemprompt'],
};

const squash = (name: string): string => name.toLowerCase().replace(/[\s_-]+/g, '');
const leaf = (path: string): string => squash(path.split('.').at(-1) ?? path);

function find(
  fields: readonly SourceField[],
  names: readonly string[],
  kinds: readonly SourceField['kind'][],
  taken: ReadonlySet<string> = new Set(),
): string | undefined {
  for (const name of names) {
    const hit = fields.find(
      (field) => leaf(field.path) === name && kinds.includes(field.kind) && !taken.has(field.path),
    );
    if (hit) return hit.path;
  }
  return undefined;
}

/** Turn keys for the role and the content, most telling first. */
const ROLE_KEYS = ['role', 'from', 'speaker', 'author', 'sender'];
/** Role names chat datasets use for the sample's roles (ShareGPT, OASST, chatbot logs). */
const COMMON_ROLE_NAMES: Readonly<Record<string, string>> = {
  human: 'user',
  prompter: 'user',
  gpt: 'assistant',
  bot: 'assistant',
  model: 'assistant',
};

const CONTENT_KEYS = ['content', 'value', 'text', 'utterance', 'message'];

/**
 * The role and content keys of a messages field, from its sample (the JSON of
 * the first value, shortened: the first turn's keys are in it), and ShareGPT's
 * role names when the sample shows them. Without this a ShareGPT guess would
 * look for `role`/`content` and fit no row.
 */
function turnFields(sample: string): MappingFields {
  const keys = [...sample.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)].map((match) => match[1]);
  const roleKey = ROLE_KEYS.find((key) => keys.includes(key));
  const contentKey = CONTENT_KEYS.find((key) => keys.includes(key));
  // The sample is cut short and may show one turn only: a file with its own role key gets the
  // common role names of chat datasets (unknown names stay as they are, for the audit to report).
  const ownRoles =
    /"(human|gpt|bot|prompter|model)"/.test(sample) ||
    (roleKey !== undefined && roleKey !== 'role');
  return {
    ...(roleKey && roleKey !== 'role' ? { role_key: roleKey } : {}),
    ...(contentKey && contentKey !== 'content' ? { content_key: contentKey } : {}),
    ...(ownRoles ? { roles: { ...COMMON_ROLE_NAMES } } : {}),
  };
}

/** ARC-style labelled choices: the `text` list of a choices-like object (`choices.text`). */
function labelledTexts(fields: readonly SourceField[]): string | undefined {
  return fields.find((field) => {
    const segments = field.path.split('.');
    return (
      field.kind === 'array' &&
      segments.length > 1 &&
      squash(segments.at(-1) ?? '') === 'text' &&
      NAMES.choices.includes(squash(segments.at(-2) ?? ''))
    );
  })?.path;
}

/** Consecutive single-letter columns A, B, C, ... (MMLU CSVs): at least two. */
function letterColumns(fields: readonly SourceField[]): string[] | undefined {
  const columns: string[] = [];
  for (let code = 65; code < 91; code++) {
    const letter = String.fromCharCode(code);
    const hit = fields.find(
      (field) =>
        (field.path === letter || field.path === letter.toLowerCase()) && field.kind !== 'array',
    );
    if (!hit) break;
    columns.push(hit.path);
  }
  return columns.length >= 2 ? columns : undefined;
}

/**
 * A first mapping for a file's fields, by their names: choices (an array or
 * columns A, B, C...) make it multiple choice; a messages-like array of
 * objects, a conversation; a prompt-like and a response-like field, a
 * conversation of two turns (with a context/input field joined to the
 * prompt); a question and an answer, question answering; else the text field
 * with the longest sample. Null when nothing fits; the user corrects it.
 */
export function guessMapping(given: readonly SourceField[]): FieldMapping | null {
  // Only paths a mapping can hold (1-500 characters), so the guess always validates.
  const fields = given.filter((field) => field.path.length > 0 && field.path.length <= 500);
  const TEXT: SourceField['kind'][] = ['string', 'number'];
  const ANY_SCALAR: SourceField['kind'][] = ['string', 'number', 'boolean'];
  const choices =
    find(fields, NAMES.choices, ['array']) ?? labelledTexts(fields) ?? letterColumns(fields);
  if (choices) {
    const taken = new Set(typeof choices === 'string' ? [choices] : choices);
    const question = find(fields, NAMES.question, TEXT, taken);
    const context = question ?? find(fields, ['context', 'ctx', 'stem'], TEXT, taken);
    // HellaSwag's `ctx` is a sentence to be continued by the endings, not a question.
    const style =
      context !== undefined && !question && leaf(context) === 'ctx' ? 'continuation' : 'qa';
    const answer = find(
      fields,
      NAMES.label,
      ANY_SCALAR,
      new Set([...taken, ...(context ? [context] : [])]),
    );
    if (context && answer) {
      return { task_type: 'multiple_choice', fields: { context, choices, answer, style } };
    }
  }
  const messages = find(fields, NAMES.messages, ['array']);
  if (messages) {
    const sample = fields.find((field) => field.path === messages)?.sample ?? '';
    return { task_type: 'conversation', fields: { messages, ...turnFields(sample) } };
  }
  const question = find(fields, ['question', 'query', 'problem'], TEXT);
  const answer = find(fields, ['answer', 'solution'], TEXT);
  if (question && answer) {
    return { task_type: 'question_answer', fields: { question, answer } };
  }
  const instruction = find(fields, NAMES.instruction, TEXT);
  const response = instruction
    ? find(fields, NAMES.response, TEXT, new Set([instruction]))
    : undefined;
  if (instruction && response) {
    const input = find(fields, NAMES.input, ['string', 'null'], new Set([instruction, response]));
    const system = find(fields, NAMES.system, ['string', 'null'], new Set([instruction, response]));
    return {
      task_type: 'conversation',
      fields: {
        prompt: input ? [instruction, input] : instruction,
        response,
        ...(system ? { system } : {}),
      },
    };
  }
  // Else the longest string field, if it reads as words: a file of ids, scores and one-word labels
  // (an index of matched pairs: `"match": "exact"`) holds no text to audit, and taking its label
  // for the text would audit "exact" and "fuzzy". The person is asked instead.
  const text =
    find(fields, NAMES.text, ['string']) ??
    [...fields]
      .filter((f) => f.kind === 'string' && readsAsWords(f.sample))
      .sort((a, b) => b.sample.length - a.sample.length)[0]?.path;
  return text ? { task_type: 'text', fields: { text } } : null;
}
