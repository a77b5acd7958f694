import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { Conventions } from '../conventions.ts';
import { checkConversation, turnsRead } from './conversation.ts';
import { checkMultipleChoice } from './multiple-choice.ts';
import { checkQuestionAnswer } from './question-answer.ts';
import { checkText } from './text.ts';
import type { InspectedField } from './text-fields.ts';
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

const field = (text: string, path: string, freeText: boolean, role?: string): InspectedField => ({
  text,
  context: { freeText, path, role },
});

/**
 * The strings the checks above hand to the text rules, with their contexts,
 * as each check reads them (for `inspectAhead`; a test holds the two
 * together).
 */
export function inspectedFields(sample: Sample): InspectedField[] {
  switch (sample.task_type) {
    case 'text':
      return [field(sample.text, '/text', true)];
    case 'multiple_choice':
      return [
        field(sample.context, '/context', false),
        ...sample.choices.map((choice, i) => field(choice, `/choices/${i}`, false)),
      ];
    case 'question_answer':
      return [field(sample.question, '/question', false), field(sample.answer, '/answer', false)];
    case 'conversation':
      return turnsRead(sample).flatMap((i) => {
        const message = sample.messages[i];
        const content = message?.content ?? '';
        // Empty turns are reported by empty_turns, not read by the rules.
        return content.trim() === ''
          ? []
          : [field(content, `/messages/${i}/content`, true, message?.role)];
      });
  }
}
