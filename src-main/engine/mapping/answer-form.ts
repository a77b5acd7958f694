import type { AnswerForm } from '../../../src-shared/schemas/mapping.ts';

/**
 * Multiple-choice answers as files write them: a 0-based index, a 1-based
 * index, a letter (A or a = the first choice), or the right choice's text.
 * Numbers may be numbers or their decimal text (CSV).
 */

const LETTER = /^[A-Za-z]$/;
const DIGITS = /^\d{1,9}$/;

function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && DIGITS.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** The answer as a 0-based choice index under `form`, or undefined when it is not of that form. */
export function readAnswer(
  value: unknown,
  form: AnswerForm,
  choices: readonly string[],
): number | undefined {
  switch (form) {
    case 'letter':
      return typeof value === 'string' && LETTER.test(value.trim())
        ? value.trim().toUpperCase().charCodeAt(0) - 65
        : undefined;
    case 'zero_based': {
      const n = integerOf(value);
      return n !== undefined && n >= 0 ? n : undefined;
    }
    case 'one_based': {
      const n = integerOf(value);
      return n !== undefined && n >= 1 ? n - 1 : undefined;
    }
    case 'text': {
      if (typeof value !== 'string' && typeof value !== 'number') return undefined;
      const index = choices.indexOf(String(value));
      return index >= 0 ? index : undefined;
    }
  }
}

/** What `form` expects, for messages. */
export function describeForm(form: AnswerForm): string {
  switch (form) {
    case 'letter':
      return 'a letter (A = the first choice)';
    case 'zero_based':
      return 'a 0-based index (0 = the first choice)';
    case 'one_based':
      return 'a 1-based index (1 = the first choice)';
    case 'text':
      return 'the text of one of the choices';
  }
}

/**
 * The answer for choice `index` in the source's own form and type: a number
 * stays a number, digits in text stay text, a lower-case letter stays lower
 * case. Undefined when the form cannot say it (a letter past Z, a choice
 * index with no choice).
 */
export function writeAnswer(
  index: number,
  form: AnswerForm,
  choices: readonly string[],
  original: unknown,
): string | number | undefined {
  switch (form) {
    case 'letter': {
      if (index < 0 || index > 25) return undefined;
      const letter = String.fromCharCode(65 + index);
      return typeof original === 'string' && /^[a-z]$/.test(original.trim())
        ? letter.toLowerCase()
        : letter;
    }
    case 'zero_based':
    case 'one_based': {
      const n = form === 'zero_based' ? index : index + 1;
      return typeof original === 'string' ? String(n) : n;
    }
    case 'text': {
      // A numeric answer (`42` among the choices "41", "42") stays a number.
      const choice = choices[index];
      return typeof original === 'number' &&
        choice !== undefined &&
        String(Number(choice)) === choice
        ? Number(choice)
        : choice;
    }
  }
}

/**
 * The form a file's answers are written in, from its first rows (each the
 * answer value and the row's choices): the form that reads the most answers
 * in range, ties broken by evidence. Numbers with a 0 among them are 0-based;
 * numbers that reach the choice count are 1-based; numbers that do neither
 * are 1-based only when there are enough of them (eight or more rows without
 * a 0 are unlikely to be 0-based), else 0-based. Undefined without answers.
 */
export function detectAnswerForm(
  rows: readonly { answer: unknown; choices: readonly string[] }[],
): AnswerForm | undefined {
  const inRange = (form: AnswerForm): number =>
    rows.filter(({ answer, choices }) => {
      const index = readAnswer(answer, form, choices);
      return index !== undefined && index < Math.max(choices.length, 1);
    }).length;
  const text = inRange('text');
  const letter = rows.every(({ answer }) => typeof answer !== 'string' || !DIGITS.test(answer))
    ? inRange('letter')
    : 0;
  const numbers = rows.map(({ answer }) => integerOf(answer)).filter((n) => n !== undefined);
  if (Math.max(text, letter, numbers.length) === 0) return undefined;
  if (text > letter && text >= numbers.length) return 'text';
  if (letter >= numbers.length) return 'letter';
  const hasZero = numbers.includes(0);
  const reachesCount = rows.some(({ answer, choices }) => integerOf(answer) === choices.length);
  if (hasZero) return 'zero_based';
  if (reachesCount || numbers.length >= 8) return 'one_based';
  return 'zero_based';
}
