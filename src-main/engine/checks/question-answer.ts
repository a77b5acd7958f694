import type { QuestionAnswerSample } from '../../../src-shared/schemas/sample.ts';
import { agrees } from '../arithmetic.ts';
import type { Conventions } from '../conventions.ts';
import { decided, undecided } from '../verdict.ts';
import { computeArithmeticQuestion } from './arithmetic-question.ts';
import { CheckSet } from './check-set.ts';
import { groupHits, inspectText, structuredCheckFor } from './text-fields.ts';
import type { SampleVerdicts } from './types.ts';
import {
  annotationIsWrong,
  annotations,
  equationIsWrong,
  finalAnswer,
  isWorkedSolution,
  plainEquations,
  solutionBody,
  statedNumbers,
} from './worked-solution.ts';

export const QA_CHECKS = [
  'completeness',
  'arithmetic',
  'final_answer',
  'encoding',
  'formatting',
  'safety',
] as const;

/** The value an answer gives: its `#### N`, or the answer itself when it is a bare number. */
export function answerValue(answer: string): number | null {
  const final = finalAnswer(answer);
  if (final) return final.value;
  const numbers = statedNumbers(answer);
  return numbers.length === 1 && /^\s*\$?-?[\d,.]+\s*%?\s*\.?\s*$/.test(answer)
    ? (numbers[0] ?? null)
    : null;
}

export function checkQuestionAnswer(
  sample: QuestionAnswerSample,
  conventions: Conventions,
): SampleVerdicts {
  const checks = new CheckSet(QA_CHECKS, conventions);
  const { question, answer } = sample;
  for (const [field, value] of [
    ['question', question],
    ['answer', answer],
  ] as const) {
    if (value.trim() === '') {
      checks.add('completeness', {
        code: 'empty_field',
        message: `the ${field} is empty`,
        path: `/${field}`,
        severity: 'error',
      });
    }
  }

  for (const a of annotations(answer)) {
    if (annotationIsWrong(a)) {
      checks.add('arithmetic', {
        code: 'annotation_wrong',
        message: `<<${a.expression}=${a.stated}>>: ${a.expression} is ${a.computed ?? '?'}`,
        path: '/answer',
        severity: 'error',
      });
    } else if (a.visible && a.visible.text.replaceAll(',', '') !== a.stated.replaceAll(',', '')) {
      checks.add('arithmetic', {
        code: 'visible_result_mismatch',
        message: `the annotation gives ${a.stated} but the text after it says ${a.visible.text}`,
        path: '/answer',
        severity: 'error',
      });
    }
  }
  for (const e of plainEquations(answer)) {
    if (equationIsWrong(e)) {
      checks.add('arithmetic', {
        code: 'equation_wrong',
        message: `${e.expression} = ${e.stated}: it is ${e.computed}`,
        path: '/answer',
        severity: 'error',
      });
    }
  }

  const final = finalAnswer(answer);
  if (!final && answer.includes('<<')) {
    checks.add('final_answer', {
      code: 'final_answer_missing',
      message: 'a worked solution without its final "#### N" line',
      path: '/answer',
      severity: 'warning',
    });
  } else if (final && final.value === null) {
    checks.add('final_answer', {
      code: 'final_answer_not_numeric',
      message: `the final answer "${final.text.slice(0, 30)}" is not a number`,
      path: '/answer',
      severity: 'warning',
    });
  }

  const hits = [
    ...inspectText(question, '/question', { freeText: false, conventions }),
    ...inspectText(answer, '/answer', { freeText: false, conventions }),
  ];
  for (const [check, group] of groupHits(hits, structuredCheckFor)) checks.addHits(check, group);

  checks.set('answer_correct', judgeAnswer(question, answer));
  const verdicts = checks.verdicts();
  return { checks: verdicts, answer_correct: verdicts.answer_correct?.passed ?? null };
}

/**
 * `answer_correct`: true only when the builtin engine computed the answer
 * itself (a pure arithmetic question); false when the answer contradicts that
 * computation or its own worked solution never arrives at its final value;
 * null otherwise, since a consistent solution is not a verified one.
 */
function judgeAnswer(question: string, answer: string) {
  const computed = computeArithmeticQuestion(question);
  const value = answerValue(answer);
  if (computed !== null && value !== null) {
    return decided(agrees(computed, value, String(value)), {
      code: 'answer_incorrect',
      message: `the question computes to ${computed}, the answer says ${value}`,
      path: '/answer',
      severity: 'error',
    });
  }
  const final = finalAnswer(answer);
  if (final?.value != null && isWorkedSolution(answer)) {
    const problem = unsupportedBy(solutionBody(answer), final.value, final.text);
    if (problem) {
      return {
        passed: false,
        score: 0,
        issues: [
          {
            code: 'answer_unsupported',
            message: problem,
            path: '/answer',
            severity: 'error' as const,
          },
        ],
      };
    }
  }
  return undecided();
}

/**
 * Why a worked solution does not support its final value, or null when it
 * does. Both sides are stated numbers, so they must be equal, not merely
 * equal after rounding (8.5 in the work does not support "#### 9"). A GSM8K
 * solution (calculator annotations) concludes on its last line, so the value
 * must be stated there: a changed final answer that happens to equal some
 * intermediate result is still caught. On the 300 real GSM8K items neither
 * rule fires; of 1,200 altered final answers (+1, -1, +7, +10) 16 slip
 * through, all equal to another number on the last line.
 */
function unsupportedBy(body: string, value: number, text: string): string | null {
  const same = (n: number): boolean => Math.abs(n - value) <= 1e-9 * Math.max(1, Math.abs(value));
  if (!statedNumbers(body).some(same)) {
    return `the final answer ${text} appears nowhere in its own solution`;
  }
  if (!body.includes('<<')) return null;
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  const last = lines[lines.length - 1] ?? '';
  return statedNumbers(last).some(same)
    ? null
    : `the final answer ${text} is not what the solution's last line concludes`;
}
