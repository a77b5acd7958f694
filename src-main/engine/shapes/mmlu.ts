import {
  indexField,
  indexLike,
  misfit,
  parseIndex,
  sampleOf,
  stringArrayField,
  stringField,
} from './fields.ts';
import type { ShapeMapper } from './types.ts';

const LETTER = /^[A-Z]$/;

/** `answer` as an index: `2`, `"2"` or the letter `"C"`. Out-of-range indexes are kept for the audit. */
function answerIndex(value: unknown): number | undefined {
  if (typeof value === 'string' && LETTER.test(value)) return value.charCodeAt(0) - 65;
  return parseIndex(value);
}

/** MMLU: `{question, choices: string[], answer}`, answer an index or a letter. */
export const mmluShape: ShapeMapper = {
  info: {
    id: 'mmlu',
    label: 'MMLU',
    taskType: 'multiple_choice',
    description: 'question, a list of choices and the answer as an index or a letter.',
  },
  owns: ['question', 'choices', 'answer'],
  check: (row) =>
    stringField(row, 'question') ??
    stringArrayField(row, 'choices') ??
    indexField(row, 'answer', answerIndex, 'a zero-based index or a letter A-Z'),
  toSample: (row) => ({
    task_type: 'multiple_choice',
    context: row.question as string,
    choices: [...(row.choices as string[])],
    answer_index: answerIndex(row.answer) ?? 0,
    style: 'qa',
  }),
  toRow(sample, original) {
    const mc = sampleOf(sample, 'multiple_choice', mmluShape.info);
    let answer: number | string = indexLike(original.answer, mc.answer_index);
    if (typeof original.answer === 'string' && LETTER.test(original.answer)) {
      if (mc.answer_index < 0 || mc.answer_index > 25) {
        throw misfit(mmluShape.info, `answer_index ${mc.answer_index} has no letter A-Z`);
      }
      answer = String.fromCharCode(65 + mc.answer_index);
    }
    return { question: mc.context, choices: [...mc.choices], answer };
  },
};
