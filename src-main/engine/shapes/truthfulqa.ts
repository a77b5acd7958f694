import { misfit, recordField, sampleOf, stringField, type Problem } from './fields.ts';
import type { Row, ShapeMapper } from './types.ts';
import { choiceLetter } from '../../../src-shared/letters.ts';

function targetsProblem(row: Row): Problem {
  const problem = recordField(row, 'mc1_targets');
  if (problem) return problem;
  const targets = Object.values(row.mc1_targets as Row);
  if (targets.length === 0) return '"mc1_targets" has no answers';
  return targets.every((v) => v === 0 || v === 1)
    ? undefined
    : '"mc1_targets" must map each answer to 0 or 1';
}

/**
 * TruthfulQA multiple choice: `{question, mc1_targets: {answer: 0|1}}`. The
 * choices are the mc1 answers in order and the answer is the one marked 1.
 * `mc2_targets` is passthrough and never rewritten.
 */
export const truthfulqaShape: ShapeMapper = {
  info: {
    id: 'truthfulqa_mc',
    label: 'TruthfulQA (mc)',
    taskType: 'multiple_choice',
    description: 'question and mc1_targets {answer: 0 or 1}; exactly one answer is marked 1.',
  },
  owns: ['question', 'mc1_targets'],
  check: (row) => stringField(row, 'question') ?? targetsProblem(row),
  toSample(row) {
    const entries = Object.entries(row.mc1_targets as Row);
    const marked = entries.flatMap(([, v], i) => (v === 1 ? [i] : []));
    const [answerIndex] = marked;
    if (answerIndex === undefined || marked.length > 1) {
      throw misfit(
        truthfulqaShape.info,
        `"mc1_targets" must mark exactly one answer with 1, not ${marked.length}`,
      );
    }
    return {
      task_type: 'multiple_choice',
      context: row.question as string,
      choices: entries.map(([answer]) => answer),
      answer_index: answerIndex,
      style: 'qa',
    };
  },
  toRow(sample) {
    const mc = sampleOf(sample, 'multiple_choice', truthfulqaShape.info);
    if (mc.answer_index < 0 || mc.answer_index >= mc.choices.length) {
      throw misfit(truthfulqaShape.info, `answer_index ${mc.answer_index} is outside the choices`);
    }
    const duplicate = mc.choices.findIndex((c, i) => mc.choices.indexOf(c) !== i);
    if (duplicate >= 0) {
      throw misfit(
        truthfulqaShape.info,
        `choice ${choiceLetter(duplicate)} repeats an earlier choice; mc1_targets cannot hold the same answer twice`,
      );
    }
    return {
      question: mc.context,
      mc1_targets: Object.fromEntries(mc.choices.map((c, i) => [c, i === mc.answer_index ? 1 : 0])),
    };
  },
};
