import { QUESTION_ANSWER_CHECKS } from '../../../src-shared/checks.ts';
import type { QuestionAnswerSample } from '../../../src-shared/schemas/sample.ts';
import { agrees, type ExactNumber, parseNumberOrFraction } from '../arithmetic.ts';
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
  unsupportedReason,
  visibleDisagrees,
} from './worked-solution.ts';

/** What an answer states: its `#### N`, or the answer itself when it is a bare number or fraction. */
export function answerStated(answer: string): ExactNumber | null {
  const final = finalAnswer(answer);
  if (final) return final.value === null ? null : { value: final.value, text: final.text };
  return parseNumberOrFraction(answer);
}

export function checkQuestionAnswer(
  sample: QuestionAnswerSample,
  conventions: Conventions,
): SampleVerdicts {
  const checks = new CheckSet(QUESTION_ANSWER_CHECKS, conventions);
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
    } else if (a.visible && visibleDisagrees(a)) {
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
  if (!final && annotations(answer).length > 0) {
    checks.add('final_answer', {
      code: 'final_answer_missing',
      message: 'a worked solution without its final "#### N" line',
      path: '/answer',
      // Calculator annotations make it a GSM8K solution, whose format requires the final line.
      severity: 'error',
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
    ...inspectText(answer, '/answer', { freeText: false, conventions, instruction: question }),
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
  const stated = answerStated(answer);
  if (computed !== null && stated !== null) {
    return decided(agrees(computed, stated.value, stated.text), {
      code: 'answer_incorrect',
      message: `the question computes to ${computed}, the answer says ${stated.text.trim()}`,
      path: '/answer',
      severity: 'error',
    });
  }
  const final = finalAnswer(answer);
  if (final?.value != null && isWorkedSolution(answer)) {
    const problem = unsupportedReason(solutionBody(answer), final.value, final.text);
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
