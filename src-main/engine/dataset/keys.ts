import type { Sample } from '../../../src-shared/schemas/sample.ts';

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
 *   GSM8K-style `####`, else the whole answer), so two worked solutions that
 *   reach the same result agree.
 * - conversation: every turn with its role; no label (one prompt may have
 *   several good replies).
 */

/**
 * A text as duplicates are compared: Unicode compatibility form (NFKC),
 * lower case, punctuation and symbols taken out, runs of whitespace made one
 * space. So "Hello,  World!" and "hello world" are the same.
 */
export function normalizeForDuplicates(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase();
  const words = folded
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  // A text of nothing but punctuation and symbols ("∆°") keeps them: it is not every other such text.
  return words !== '' ? words : folded.replace(/\s+/gu, ' ').trim();
}

/** Separates the parts of a key (never left in a normalised text). */
const PART = '\u0001';

export interface DuplicateKey {
  /** The normalised key: equal keys are exact duplicates. */
  key: string;
  /** The words near-duplicate detection shingles (of the key, without its separators). */
  words: string[];
  /** The normalised label, or null when the task type has none or the sample names none. */
  label: string | null;
}

/** The final answer of a worked solution: what follows `####` on its last such line, else all of it. */
function finalAnswer(answer: string): string {
  const marker = answer.lastIndexOf('####');
  return marker >= 0 ? answer.slice(marker + 4) : answer;
}

const wordsOf = (parts: readonly string[]): string[] =>
  parts.flatMap((part) => (part === '' ? [] : part.split(' ')));

export function duplicateKey(sample: Sample): DuplicateKey {
  switch (sample.task_type) {
    case 'text': {
      const key = normalizeForDuplicates(sample.text);
      return { key, words: wordsOf([key]), label: null };
    }
    case 'multiple_choice': {
      const context = normalizeForDuplicates(sample.context);
      const choices = sample.choices.map(normalizeForDuplicates);
      const sorted = [...choices].sort();
      const labelled = choices[sample.answer_index];
      return {
        key: [context, ...sorted].join(PART),
        words: wordsOf([context, ...sorted]),
        label: labelled ?? null,
      };
    }
    case 'question_answer': {
      const key = normalizeForDuplicates(sample.question);
      return {
        key,
        words: wordsOf([key]),
        label: normalizeForDuplicates(finalAnswer(sample.answer)),
      };
    }
    case 'conversation': {
      const turns = sample.messages.map(
        (m) => `${normalizeForDuplicates(m.role)} ${normalizeForDuplicates(m.content)}`,
      );
      return { key: turns.join(PART), words: wordsOf(turns), label: null };
    }
  }
}
