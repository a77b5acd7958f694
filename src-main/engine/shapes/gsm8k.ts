import { sampleOf, stringField } from './fields.ts';
import type { ShapeMapper } from './types.ts';

/** GSM8K: `{question, answer}` with a worked solution ending in `#### N`. */
export const gsm8kShape: ShapeMapper = {
  info: {
    id: 'gsm8k',
    label: 'GSM8K',
    taskType: 'question_answer',
    description: 'question and answer text (e.g. GSM8K worked solutions ending in "#### N").',
  },
  owns: ['question', 'answer'],
  check: (row) => stringField(row, 'question') ?? stringField(row, 'answer'),
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
