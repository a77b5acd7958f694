import { MULTIPLE_CHOICE_CHECKS } from '../../../src-shared/checks.ts';
import type { MultipleChoiceSample } from '../../../src-shared/schemas/sample.ts';
import { agrees, type ExactNumber, parseNumberOrFraction, same } from '../arithmetic.ts';
import type { Conventions } from '../conventions.ts';
import { decided, undecided } from '../verdict.ts';
import { computeArithmeticQuestion } from './arithmetic-question.ts';
import { CheckSet } from './check-set.ts';
import { mangledNumbers } from './choice-numbers.ts';
import {
  endsMidClause,
  isQuestionWithFullStop,
  looksLikeQuestion,
  looksLikeQuestionStem,
} from './stem-form.ts';
import { groupHits, inspectText, structuredCheckFor } from './text-fields.ts';
import type { SampleVerdicts } from './types.ts';

export { looksLikeQuestion } from './stem-form.ts';
import { choiceLetter } from '../../../src-shared/letters.ts';
import { isLetterCodePoint, isSpaceCode } from '../text/chars.ts';

/** "All of the above", "all of these", "none of the options": one option, however it is worded. */
const ALL_OR_NONE =
  /^(all|none|both|neither) (?:of )?(?:the )?(?:above|these|them|(?:above )?(?:options|choices|answers)(?: above)?)$/;

/**
 * How choices are compared for duplicates: case, spacing and punctuation do
 * not count ("Ice-cream", "ice  cream", "ice cream."), but what makes words
 * and numbers differ does: an apostrophe inside a word ("it's", "its"; "we'll",
 * "well"), the marks inside a number ("3.5", "35"; "1/2", "12"), a minus sign
 * ("-5", "5"), symbols ("x > 5", "x < 5"), and where the word breaks are
 * ("a part", "apart"). "All of the above" and "all of these" are one option.
 */
export function normalizeChoice(choice: string): string {
  // ASCII is its own NFKC form: most choices skip the normalizer.
  const ascii = !NON_ASCII.test(choice);
  const lower = (ascii ? choice : choice.normalize('NFKC')).toLowerCase();
  const text =
    (ascii && lower.length <= MAX_ASCII_PASS ? asciiMarksRead(lower) : undefined) ??
    (PUNCTUATION.test(lower) ? marksRead(lower) : lower).replace(/\s+/g, ' ').trim();
  // Nothing but punctuation ("?", "!"): the marks are the option.
  if (text === '') return lower.replace(/\s+/g, '');
  const allOrNone = ALL_OR_NONE.exec(text);
  return allOrNone ? `(${allOrNone[1] ?? ''} of the above)` : text;
}

const PUNCTUATION = /\p{P}/u;
const NON_ASCII = /[^\u0000-\u007f]/;

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** Punctuation as a space, but for what makes words and numbers differ. */
function marksRead(lower: string): string {
  return lower.replace(/\p{P}/gu, (mark, at: number) => {
    // The code units on either side (a space beyond the ends), as the tests below read them.
    const before = at > 0 ? lower.charCodeAt(at - 1) : 32;
    const after = at + 1 < lower.length ? lower.charCodeAt(at + 1) : 32;
    // inside a number: a decimal point, a fraction bar, a time, a range; thousands commas go
    if (isDigit(before) && isDigit(after)) return mark === ',' ? '' : mark;
    if ((mark === "'" || mark === '’') && isLetterCodePoint(before) && isLetterCodePoint(after)) {
      return "'";
    }
    // a minus sign before a number
    if ((mark === '-' || mark === '–') && isDigit(after) && isSpaceCode(before)) return '-';
    return ' ';
  });
}

/** ASCII `\p{P}`: the marks `marksRead` reads (the others, `$+<=>^`|~`, are symbols). */
const ASCII_MARK = new Uint8Array(128);
for (const mark of '!"#%&\'()*,-./:;?@[\\]_{}') ASCII_MARK[mark.charCodeAt(0)] = 1;
/** Longer strings take the regex path (the codes are turned into a string in one call). */
const MAX_ASCII_PASS = 2048;
let asciiCodes = new Uint16Array(256);

/**
 * `marksRead(lower).replace(/\s+/g, ' ').trim()` for ASCII text, in one pass
 * over the char codes: every choice is normalized, and the regex replace with
 * a callback per mark cost more than the rest of the check.
 */
function asciiMarksRead(lower: string): string {
  if (asciiCodes.length < lower.length) asciiCodes = new Uint16Array(lower.length * 2);
  let length = 0;
  let space = false;
  for (let at = 0; at < lower.length; at++) {
    let code = lower.charCodeAt(at);
    if (ASCII_MARK[code] === 1) {
      // The code units on either side (a space beyond the ends), as marksRead reads them.
      const before = at > 0 ? lower.charCodeAt(at - 1) : 32;
      const after = at + 1 < lower.length ? lower.charCodeAt(at + 1) : 32;
      if (isDigit(before) && isDigit(after)) {
        if (code === 44) continue; // a thousands comma goes
      } else if (code === 39 && isLetterCodePoint(before) && isLetterCodePoint(after)) {
        // an apostrophe inside a word stays
      } else if (!(code === 45 && isDigit(after) && isSpaceCode(before))) code = 32;
    }
    if (code === 32 || (code >= 9 && code <= 13)) {
      space = true;
      continue;
    }
    if (space && length > 0) asciiCodes[length++] = 32;
    space = false;
    asciiCodes[length++] = code;
  }
  // apply reads a typed array as the argument list directly (a spread iterates it).
  return String.fromCharCode.apply(null, asciiCodes.subarray(0, length) as unknown as number[]);
}

/**
 * The choices that state the computed value of an arithmetic question: those
 * equal to it (a fraction "3/4" or mixed number "3 3/4" read as its value),
 * else the one that is its rounding ("3.33" for 10/3). Null when the label
 * cannot be judged: the question is not pure arithmetic, a choice is not a
 * plain number or fraction ("34 years", "60%", words), or several choices
 * are roundings of it ("3.3" and "3.33").
 */
export function computedChoice(
  sample: MultipleChoiceSample,
): { value: number; matches: number[] } | null {
  const value = computeArithmeticQuestion(sample.context);
  if (value === null) return null;
  const numbers = sample.choices.map(parseNumberOrFraction);
  if (numbers.some((n) => n === null)) return null;
  const indicesWhere = (test: (n: ExactNumber) => boolean): number[] =>
    numbers.flatMap((n, i) => (n && test(n) ? [i] : []));
  const exact = indicesWhere((n) => same(value, n.value));
  if (exact.length > 0) return { value, matches: exact };
  const rounded = indicesWhere((n) => agrees(value, n.value, n.text));
  return rounded.length > 1 ? null : { value, matches: rounded };
}

export function checkMultipleChoice(
  sample: MultipleChoiceSample,
  conventions: Conventions,
): SampleVerdicts {
  const checks = new CheckSet(MULTIPLE_CHOICE_CHECKS, conventions);
  const { choices, answer_index: answerIndex } = sample;

  if (!Number.isInteger(answerIndex) || answerIndex < 0 || answerIndex >= choices.length) {
    checks.add('answer_index', {
      code: 'answer_index_out_of_range',
      message: `answer_index ${answerIndex} is outside the ${choices.length} choices`,
      path: '/answer_index',
      severity: 'error',
    });
  }

  if (choices.length < 2) {
    checks.add('choices', {
      code: 'too_few_choices',
      message: `${choices.length} choice(s): a multiple-choice item needs at least two`,
      path: '/choices',
      severity: 'error',
    });
  }
  // Each choice is normalized once (for duplicates, the answer and the leak test).
  const normalized: (string | undefined)[] = [];
  const normalizedAt = (i: number): string => (normalized[i] ??= normalizeChoice(choices[i] ?? ''));
  const firstSeen = new Map<string, number>();
  choices.forEach((choice, i) => {
    if (choice.trim() === '') {
      checks.add('choices', {
        code: 'empty_choice',
        message: `choice ${choiceLetter(i)} is empty`,
        path: `/choices/${i}`,
        severity: 'error',
      });
      return;
    }
    const key = normalizedAt(i);
    const earlier = firstSeen.get(key);
    if (earlier === undefined) firstSeen.set(key, i);
    else {
      checks.add('choices', {
        code: 'duplicate_choice',
        message: `choice ${choiceLetter(i)} repeats choice ${choiceLetter(earlier)} ("${choice.slice(0, 40)}")`,
        path: `/choices/${i}`,
        severity: 'error',
      });
    }
  });

  choices.forEach((_, i) => {
    for (const m of mangledNumbers(i, choices, sample.context)) {
      checks.add('choices', {
        code: m.kind,
        message:
          m.kind === 'lost_exponent'
            ? `choice ${choiceLetter(i)} reads "${m.found}": the exponent lost its superscript (${m.repaired})`
            : `choice ${choiceLetter(i)} reads "${m.found}": a spreadsheet turned "${m.repaired.trim()}" into a date`,
        path: `/choices/${i}`,
        severity: 'error',
        span: m.span,
      });
    }
  });

  if (sample.style === 'qa' && !looksLikeQuestion(sample.context)) {
    checks.add('style', {
      code: 'style_mismatch',
      message: endsMidClause(sample.context)
        ? 'style is "qa" but the context ends mid-clause: it is not a complete question'
        : isQuestionWithFullStop(sample.context)
          ? 'style is "qa" but the context ends with a full stop where its question needs "?"'
          : 'style is "qa" but the context does not read as a question',
      path: '/style',
      severity: 'warning',
    });
  } else if (sample.style === 'continuation' && looksLikeQuestionStem(sample.context)) {
    checks.add('style', {
      code: 'style_mismatch',
      message: 'style is "continuation" but the context is a question',
      path: '/style',
      severity: 'warning',
    });
  }

  const answer = choices[answerIndex];
  if (answer !== undefined) {
    const key = normalizedAt(answerIndex);
    const long = key.length >= 12 || key.split(' ').length >= 3;
    // The context is read only for an answer long enough to leak.
    const context = long ? normalizeChoice(sample.context) : '';
    if (
      long &&
      context.includes(key) &&
      !choices.some((_, i) => i !== answerIndex && context.includes(normalizedAt(i)))
    ) {
      checks.add('answer_leak', {
        code: 'answer_leak',
        message: 'the labelled answer appears word for word in the context',
        path: '/context',
        severity: 'error',
      });
    }
  }

  const hits = [
    ...inspectText(sample.context, '/context', { freeText: false, conventions }),
    ...choices.flatMap((c, i) => inspectText(c, `/choices/${i}`, { freeText: false, conventions })),
  ];
  for (const [check, group] of groupHits(hits, structuredCheckFor)) checks.addHits(check, group);

  const computed = computedChoice(sample);
  if (computed && answer !== undefined) {
    const first = computed.matches[0];
    checks.set(
      'label_correct',
      decided(computed.matches.includes(answerIndex), {
        code: 'label_incorrect',
        message:
          first === undefined
            ? `the question computes to ${computed.value}, which no choice gives`
            : `the question computes to ${computed.value}: choice ${choiceLetter(first)}, not ${choiceLetter(answerIndex)}`,
        path: '/answer_index',
        severity: 'error',
      }),
    );
  } else {
    checks.set('label_correct', undecided());
  }
  const verdicts = checks.verdicts();
  const label = verdicts.label_correct?.passed ?? null;
  return { checks: verdicts, label_correct: label };
}
