import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { Conventions } from '../conventions.ts';
import { checkConversation } from './conversation.ts';
import { checkMultipleChoice } from './multiple-choice.ts';
import { checkQuestionAnswer } from './question-answer.ts';
import { checkText } from './text.ts';
import type { SampleVerdicts } from './types.ts';

/** One deterministic audit pass of the builtin engine over one sample. */
export function runChecks(sample: Sample, conventions: Conventions): SampleVerdicts {
  switch (sample.task_type) {
    case 'text':
      return checkText(sample, conventions);
    case 'multiple_choice':
      return checkMultipleChoice(sample, conventions);
    case 'question_answer':
      return checkQuestionAnswer(sample, conventions);
    case 'conversation':
      return checkConversation(sample, conventions);
  }
}
export type { SampleVerdicts } from './types.ts';
