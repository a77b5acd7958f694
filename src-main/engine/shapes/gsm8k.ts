import { sampleOf, stringField, type Problem } from './fields.ts';
import type { Row } from './types.ts';
import type { ShapeMapper } from './types.ts';

/**
 * A row with choices beside its question and answer is multiple choice, not
 * GSM8K: an MMLU-style CSV (`question,A,B,C,D,answer`) must not be read as
 * question answering with "C" for an answer.
 */
function notChoices(row: Row): Problem {
  if (['choices', 'options'].some((key) => Object.hasOwn(row, key))) return 'the row has choices';
  return Object.hasOwn(row, 'A') && Object.hasOwn(row, 'B')
    ? 'the row has choice columns A, B'
    : undefined;
}

/** GSM8K: `{question, answer}` with a worked solution ending in `#### N`. */
export const gsm8kShape: ShapeMapper = {
  info: {
    id: 'gsm8k',
    label: 'GSM8K',
    taskType: 'question_answer',
    description: 'question and answer text (e.g. GSM8K worked solutions ending in "#### N").',
  },
  owns: ['question', 'answer'],
  check: (row) => stringField(row, 'question') ?? stringField(row, 'answer') ?? notChoices(row),
  toSample: (row) => ({
    task_type: 'question_answer',
    question: row.question as string,
    answer: row.answer as string,
  }),
  toRow(sample) {
    const { question, answer } = sampleOf(sample, 'question_answer', gsm8kShape.info);
    return { question, answer };
  },
};
