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

/**
 * The words of a text as `normalizeForDuplicates` would split it, without
 * building the normalised text: ASCII text (nearly all training data) is
 * split in one pass over its character codes (letters and digits make words,
 * everything else separates them); other text goes through NFKC and the
 * Unicode classes. A text of punctuation alone is one word of itself.
 */
export function wordsForDuplicates(text: string): string[] {
  const words: string[] = [];
  let start = -1;
  let upper = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (code > 127) return slowWords(text);
    const lowerLetter = code >= 97 && code <= 122;
    const upperLetter = code >= 65 && code <= 90;
    if (lowerLetter || upperLetter || (code >= 48 && code <= 57)) {
      if (start < 0) start = i;
      if (upperLetter) upper = true;
    } else if (start >= 0) {
      const word = text.slice(start, i);
      words.push(upper ? word.toLowerCase() : word);
      start = -1;
      upper = false;
    }
  }
  return words.length > 0 || text.trim() === '' ? words : slowWords(text);
}

function slowWords(text: string): string[] {
  const normalized = normalizeForDuplicates(text);
  return normalized === '' ? [] : normalized.split(' ');
}

export interface DuplicateKey {
  /**
   * The key as parts of words (context, then each choice; each turn): equal
   * parts are exact duplicates, and their words, flattened, are what
   * near-duplicate detection shingles.
   */
  parts: string[][];
  /** The normalised label, or null when the task type has none or the sample names none. */
  label: string | null;
}

/** The final answer of a worked solution: what follows `####` on its last such line, else all of it. */
function finalAnswer(answer: string): string {
  const marker = answer.lastIndexOf('####');
  return marker >= 0 ? answer.slice(marker + 4) : answer;
}

export function duplicateKey(sample: Sample): DuplicateKey {
  switch (sample.task_type) {
    case 'text':
      return { parts: [wordsForDuplicates(sample.text)], label: null };
    case 'multiple_choice': {
      const choices = sample.choices.map(wordsForDuplicates);
      const sorted = choices
        .map((words) => ({ words, text: words.join(' ') }))
        .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
      const labelled = choices[sample.answer_index];
      return {
        parts: [wordsForDuplicates(sample.context), ...sorted.map((c) => c.words)],
        label: labelled ? labelled.join(' ') : null,
      };
    }
    case 'question_answer':
      return {
        parts: [wordsForDuplicates(sample.question)],
        label: wordsForDuplicates(finalAnswer(sample.answer)).join(' '),
      };
    case 'conversation':
      return {
        parts: sample.messages.map((m) => [
          ...wordsForDuplicates(m.role),
          ...wordsForDuplicates(m.content),
        ]),
        label: null,
      };
  }
}
