import type { Sample } from '../../../../src-shared/schemas/sample.ts';

/** Samples for the dataset checks' tests, written the short way. */

export const text = (t: string): Sample => ({ task_type: 'text', text: t });

export const qa = (question: string, answer: string): Sample => ({
  task_type: 'question_answer',
  question,
  answer,
});

export const mc = (context: string, choices: string[], answer_index: number): Sample => ({
  task_type: 'multiple_choice',
  context,
  choices,
  answer_index,
  style: 'qa',
});
