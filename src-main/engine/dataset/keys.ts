import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { formatNumber, parseNumberOrFraction } from '../arithmetic.ts';

/**
 * What duplicate detection compares of a sample: its key (the fields the
 * task type reads, as one normalised text) and its label (what a duplicate
 * must agree on, or null where a task type has none).
 *
 * - text: the text; no label.
 * - multiple_choice: the question, i.e. the context and the set of choices
 *   (sorted, so the same item with its choices in another order is the same
 *   key); the label is the text of the labelled choice, which survives the
 *   reordering that changes its index.
 * - question_answer: the question; the label is the final answer (after a
 *   GSM8K-style `####`, else in MATH's last `\boxed{}`, else the whole answer
 *   when it is short; a long free-form reply has none), so two worked
 *   solutions that reach the same result agree.
 * - conversation: every turn with its role; no label (one prompt may have
 *   several good replies).
 */

import { normalizeForDuplicates, safeWords, wordsForDuplicates } from './safe-words.ts';

export { normalizeForDuplicates, wordsForDuplicates } from './safe-words.ts';

export interface DuplicateKey {
  /**
   * The key as parts of words (context, then each choice; each turn): equal
   * parts are exact duplicates, and their words, flattened, are what
   * near-duplicate detection shingles.
   */
  parts: string[][];
  /** The normalised label, or null when the task type has none or the sample names none. */
  label: string | null;
  /**
   * Positions in the flattened parts of the names a question uses (see
   * safe-words.ts): multiple choice and question-answer only, where a
   * question about Alice is not one about Bob.
   */
  names: number[];
  /** Positions in the flattened parts of the words of a question asked after a passage (safe-words.ts). */
  asked: number[];
}

/**
 * The final answer of a worked solution: what follows `####` on its last
 * such line (GSM8K), else its last `\boxed{...}` (MATH), else all of it.
 */
export function finalAnswer(answer: string): string {
  const marker = answer.lastIndexOf('####');
  if (marker >= 0) return answer.slice(marker + 4);
  return lastBoxed(answer) ?? answer;
}

/**
 * Words of an answer beyond which, without a final-answer mark, it is a
 * free-form reply (an essay, a program): one question has many good ones, so
 * two that differ are no label conflict.
 */
const SHORT_ANSWER_WORDS = 12;

/** The label of a question-answer sample: its final answer, or null for a long free-form reply. */
function answerLabel(answer: string): string | null {
  const final = finalAnswer(answer);
  if (final === answer && wordsForDuplicates(answer).length > SHORT_ANSWER_WORDS) return null;
  return normalizeLabel(final);
}

/** The content of the last `\boxed{...}`, its braces balanced; null when there is none. */
function lastBoxed(answer: string): string | null {
  const start = answer.lastIndexOf('\\boxed{');
  if (start < 0) return null;
  let depth = 0;
  for (let i = start + '\\boxed'.length; i < answer.length; i++) {
    if (answer[i] === '{') depth++;
    else if (answer[i] === '}' && --depth === 0) return answer.slice(start + '\\boxed{'.length, i);
  }
  return null;
}

/**
 * A label as duplicates compare it: a number by its value, however written
 * ("$1,000" and "1000", "3/4" and "0.75"), else its words.
 */
export function normalizeLabel(text: string): string {
  const number = parseNumberOrFraction(text);
  return number === null ? normalizeForDuplicates(text) : formatNumber(number.value);
}

export function duplicateKey(sample: Sample): DuplicateKey {
  switch (sample.task_type) {
    case 'text':
      return { parts: [wordsForDuplicates(sample.text)], label: null, names: [], asked: [] };
    case 'multiple_choice': {
      const context = safeWords(sample.context, true);
      const sorted = sample.choices
        .map((choice) => {
          const words = wordsForDuplicates(choice);
          return { words, text: words.join(' ') };
        })
        .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
      const labelled = sample.choices[sample.answer_index];
      return {
        parts: [context.words, ...sorted.map((c) => c.words)],
        label: labelled === undefined ? null : normalizeLabel(labelled),
        names: context.names,
        asked: context.asked,
      };
    }
    case 'question_answer': {
      const question = safeWords(sample.question, true);
      return {
        parts: [question.words],
        label: answerLabel(sample.answer),
        names: question.names,
        asked: question.asked,
      };
    }
    case 'conversation':
      return {
        parts: sample.messages.map((m) => [
          ...wordsForDuplicates(m.role),
          ...wordsForDuplicates(m.content),
        ]),
        label: null,
        names: [],
        asked: [],
      };
  }
}
