import { blankCode } from '../code-spans.ts';
import { excerpt, type Finding, type RuleContext, type TextRule, wordsOf } from '../rule.ts';

/**
 * Placeholders and non-answers: a field that holds "N/A", "<noinput>",
 * "TODO", "[insert name here]" or lorem ipsum instead of content, and replies
 * that refuse ("As an AI language model, I cannot ...").
 *
 * What counts depends on the field. Unmistakable placeholders ("<noinput>",
 * "TODO", "[insert ...]", lorem ipsum) are one anywhere. "None", "null" or
 * "N/A" are fine answers to a question and fine choices, so they count only
 * where content is expected: a text sample, a question or context, a turn that
 * is not the assistant's, and the input paragraph that ends a prompt (Alpaca's
 * `input`, which the repair empties).
 */

/** The bare words of a field: quotes, brackets and end marks around it dropped, spaces folded. */
export const placeholderKey = (text: string): string =>
  text
    .trim()
    .replace(/^[\s"'“”‘’(<[{*_]+|[\s"'“”‘’)>\]}*_.!:;,]+$/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

const UNMISTAKABLE = new Set([
  'noinput',
  'no input',
  'no-input',
  'no_input',
  'no input required',
  'no input needed',
  'no input provided',
  'no input given',
  'no input necessary',
  'input not required',
  'not input',
  'noinput required',
  'nooutput',
  'no output',
  'no output required',
  'todo',
  'tbd',
  'tba',
  'placeholder',
  'insert text here',
  'insert input here',
  'insert here',
  'your text here',
  'input here',
  'text here',
  'fill in',
  'fill me in',
  'xxx',
  'xxxx',
]);
/** "Not applicable": no answer in a reply or a text, though a fine value of a field or a choice. */
const NOT_AN_ANSWER = new Set(['n/a', 'n.a', 'n/a.', 'na', 'not applicable', 'not available']);
/** Fine answers ("Which of these is prime?" "None."), placeholders where content is expected. */
const EMPTY_WORDS = new Set([
  'none',
  'null',
  'nil',
  'nan',
  'undefined',
  'empty',
  'blank',
  'nothing',
  '-',
  '--',
  '—',
  'input: none',
  'input: n/a',
  'input none',
  'input: no input',
]);

/** "[insert name]", "{{name}}"; not LaTeX's double braces (`\text{{D}}`, `^{{n}}`). */
const INSERT =
  /\[\s*(?:insert|add|enter|your|put)\b[^\]\n]{0,60}\]|(?<!\\[A-Za-z]+|[\^_])\{\{\s*[\w .-]{1,40}\s*\}\}/i;
/**
 * An instruction that sets out the format of its answer ("Follow the exact
 * format below:", "in the following format:", "use this template"): the
 * brackets after it are the slots of that format, asked for, not left unfilled.
 */
const FORMAT_SET_OUT =
  /\b(?:(?:exact|following|this|same)\s+(?:format|template|structure|layout)\b[^.!?\n]{0,20}(?:below|:)|(?:use|follow|using|fill in|fill out)\s+(?:this|the following|the)\s+(?:format|template)\b)/i;
const setsOutFormat = (before: string): boolean => FORMAT_SET_OUT.test(before);

const LOREM = /\blorem ipsum\b(?!["'”’]? (?:is|was|text is|refers|placeholder text is)\b)/i;

/** Whole-field placeholders: which are placeholders in this field. */
function wholeFieldPlaceholder(key: string, context: RuleContext | undefined): boolean {
  if (UNMISTAKABLE.has(key) || /^(?:no ?input|noinput)\b/.test(key)) return true;
  const notAnAnswer = NOT_AN_ANSWER.has(key);
  if (!notAnAnswer && !EMPTY_WORDS.has(key)) return false;
  if (!context) return true;
  const { path, role } = context;
  if (path === '/answer' || path.startsWith('/choices/')) return false;
  // A turn: an assistant's "None" may answer the question (the audit may not know the role).
  if (path.startsWith('/messages/'))
    return notAnAnswer || (role !== undefined && role !== 'assistant');
  return true;
}

/** The input paragraph that ends a prompt ("Classify this.\n\nNoinput"): where its blank line starts, and it. */
function trailingPlaceholder(text: string): { index: number; found: string } | null {
  const end = text.trimEnd();
  const at = end.lastIndexOf('\n');
  if (at < 0) return null;
  const found = end.slice(at + 1).trim();
  if (found === '' || found.length > 40) return null;
  const before = end.slice(0, at);
  const blank = before.search(/\n[ \t]*$/);
  if (blank < 0 || before.slice(0, blank).trim() === '') return null;
  const key = placeholderKey(found);
  const placeholder =
    UNMISTAKABLE.has(key) ||
    NOT_AN_ANSWER.has(key) ||
    EMPTY_WORDS.has(key) ||
    /^(?:no ?input|noinput)\b/.test(key);
  return placeholder ? { index: blank, found } : null;
}

export const placeholderRule: TextRule = {
  code: 'placeholder',
  dimension: 'coherence',
  severity: 'error',
  describe: (f) => `a placeholder instead of content: "${f.example ?? ''}"`,
  detect: (text, context): Finding | null => {
    const trimmed = text.trim();
    if (trimmed === '') return null; // reported as empty
    if (trimmed.length <= 40) {
      const key = placeholderKey(trimmed);
      if (key !== '' && wholeFieldPlaceholder(key, context)) {
        const at = text.indexOf(trimmed);
        return { count: 1, example: trimmed, span: [at, at + trimmed.length] };
      }
      if (/^\p{P}+$/u.test(trimmed) && !context?.path.startsWith('/choices/')) {
        if (context?.path !== '/answer') return { count: 1, example: trimmed };
      }
    }
    if (context?.freeText !== false) {
      const last = trailingPlaceholder(text);
      if (last) {
        const { found } = last;
        const at = text.lastIndexOf(found);
        return { count: 1, example: found, span: [at, at + found.length] };
      }
    }
    if (!text.includes('[') && !text.includes('{') && !/lorem/i.test(text)) return null;
    const prose = blankCode(text);
    const found = INSERT.exec(prose) ?? LOREM.exec(prose);
    if (!found || setsOutFormat(prose.slice(0, found.index))) return null;
    return {
      count: 1,
      example: excerpt(text, found.index + found[0].length / 2, 24),
      span: [found.index, found.index + found[0].length],
    };
  },
  /** The input paragraph that is a placeholder goes (an Alpaca input becomes empty); others stay flagged. */
  fix: (text) => {
    const last = trailingPlaceholder(text);
    return last ? text.slice(0, last.index).trimEnd() : text;
  },
};

/**
 * Refusals and the assistant boilerplate of generated data. Starting a reply
 * with a refusal and saying little else is a non-answer (an error); the phrase
 * "as an AI language model" inside a longer answer is a warning.
 */
const REFUSAL_START =
  /^(?:(?:i'?m|i am) sorry,? (?:but )?)?(?:as an? (?:ai|artificial intelligence)(?: language model| assistant| model| chatbot)?,? (?:i|it is not possible for me)|i (?:cannot|can't|can ?not|am unable to|am not able to|won't|will not) (?:help|assist|provide|fulfill|comply|complete|answer|do|generate|create|write|perform|give))/i;
const AI_BOILERPLATE =
  /\bas an? (?:ai|artificial intelligence) (?:language model|assistant|model)\b/i;

export const refusalRule: TextRule = {
  code: 'refusal',
  dimension: 'coherence',
  severity: 'warning',
  describe: (f) => `a refusal or AI boilerplate instead of an answer: "${f.example ?? ''}"`,
  detect: (text, context) => {
    if (
      text.length < 12 ||
      !/\bai\b|artificial|sorry|\bi (?:cannot|can't|am unable|won't)/i.test(text)
    ) {
      return null;
    }
    if (context?.role === 'user' || context?.role === 'system' || context?.path === '/question') {
      return null;
    }
    const start = text.trimStart();
    const found = REFUSAL_START.exec(start) ?? AI_BOILERPLATE.exec(text);
    if (!found) return null;
    const at = text.indexOf(found[0]);
    const short =
      found.index === 0 && start.length === text.trimStart().length && wordsOf(text).length <= 60;
    const finding: Finding = {
      count: 1,
      example: excerpt(text, at + found[0].length / 2, 30),
      span: [at, at + found[0].length],
    };
    if (short && REFUSAL_START.test(start)) finding.severity = 'error';
    return finding;
  },
};

const WORD = /[\p{L}\p{N}]+/gu;

/** The lower-cased words of `text`, or null as soon as there are more than `limit` (long replies stop early). */
function wordsUpTo(text: string, limit: number): string[] | null {
  const lower = text.toLowerCase();
  const out: string[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(lower); m; m = WORD.exec(lower)) {
    if (out.length === limit) return null;
    out.push(m[0]);
  }
  return out;
}

/**
 * A reply that only restates its prompt (Alpaca outputs that echo the
 * instruction): the same words, give or take case, punctuation and a few
 * words. For the conversation check, which sees both turns.
 */
export function restatesPrompt(prompt: string, reply: string): boolean {
  // A long prompt carries material to work on (a passage to clean, a text to rewrite): an answer
  // made of its words is the task done, not an echo of the instruction.
  const a = wordsUpTo(prompt, 50);
  if (a === null || a.length < 3) return false;
  // A reply of more words than the prompt's and two more neither equals it nor restates it.
  const b = wordsUpTo(reply, a.length + 2);
  if (b === null || b.length === 0) return false;
  if (a.join(' ') === b.join(' ')) return true;
  if (b.length < 3) return false;
  const inPrompt = new Set(a);
  const shared = b.filter((w) => inPrompt.has(w)).length;
  // Every word of the reply comes from the prompt: one new word ("... is images") is an answer.
  return shared === b.length && b.length >= a.length * 0.8;
}
