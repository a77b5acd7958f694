import {
  instead,
  isRecord,
  misfit,
  recordField,
  sampleOf,
  stringArrayField,
  stringField,
  type Problem,
} from './fields.ts';
import type { Row, ShapeInfo, ShapeMapper } from './types.ts';

interface LabelledChoices {
  text: string[];
  label: string[];
}

function answerKeyProblem(row: Row): Problem {
  if (!Object.hasOwn(row, 'answerKey')) return '"answerKey" is missing';
  const key = row.answerKey;
  return typeof key === 'string' || Number.isSafeInteger(key)
    ? undefined
    : `"answerKey" must be a label string, ${instead(key)}`;
}

function choicesProblem(row: Row): Problem {
  const problem = recordField(row, 'choices');
  if (problem) return problem;
  const choices = row.choices as Row;
  return (
    stringArrayField(choices, 'text', 'choices.text') ??
    stringArrayField(choices, 'label', 'choices.label')
  );
}

/** Labels for `count` choices: the original ones, cut or continued in their style (A.. or 1..). */
export function labelsFor(labels: readonly string[], count: number): string[] {
  const first = labels[0] ?? 'A';
  const numeric = /^\d+$/.test(first);
  const start = numeric ? Number(first) : /^[A-Za-z]$/.test(first) ? first.charCodeAt(0) : 65;
  return Array.from(
    { length: count },
    (_, i) => labels[i] ?? (numeric ? String(start + i) : String.fromCharCode(start + i)),
  );
}

/**
 * ARC-style rows: `{question, choices: {text, label}, answerKey}`; the answer
 * key is matched against the labels (`A`.. or `1`..). CommonsenseQA is the
 * same with `question_concept`; `extraCheck` tells the two apart.
 */
export function labelledChoiceShape(
  info: ShapeInfo,
  extraCheck: (row: Row) => Problem,
): ShapeMapper {
  const shape: ShapeMapper = {
    info,
    owns: ['question', 'choices', 'answerKey'],
    check: (row) =>
      stringField(row, 'question') ??
      choicesProblem(row) ??
      answerKeyProblem(row) ??
      extraCheck(row),
    toSample(row) {
      const { text, label } = row.choices as LabelledChoices;
      if (text.length !== label.length) {
        throw misfit(info, `"choices" has ${text.length} texts but ${label.length} labels`);
      }
      const key = String(row.answerKey);
      const answerIndex = label.indexOf(key);
      if (answerIndex < 0) {
        throw misfit(
          info,
          `"answerKey" ${JSON.stringify(key)} is not one of the labels ${label.join(', ')}`,
        );
      }
      return {
        task_type: 'multiple_choice',
        context: row.question as string,
        choices: [...text],
        answer_index: answerIndex,
        style: 'qa',
      };
    },
    toRow(sample, original) {
      const mc = sampleOf(sample, 'multiple_choice', info);
      const choices = isRecord(original.choices) ? original.choices : {};
      const oldLabels = (choices as Partial<LabelledChoices>).label ?? [];
      const label =
        mc.choices.length === oldLabels.length
          ? [...oldLabels]
          : labelsFor(oldLabels, mc.choices.length);
      const key = label[mc.answer_index];
      if (key === undefined) {
        throw misfit(
          info,
          `answer_index ${mc.answer_index} is outside the ${label.length} choices`,
        );
      }
      return {
        question: mc.context,
        choices: { ...choices, text: [...mc.choices], label },
        answerKey: typeof original.answerKey === 'number' ? Number(key) : key,
      };
    },
  };
  return shape;
}

export const arcShape = labelledChoiceShape(
  {
    id: 'arc',
    label: 'ARC',
    taskType: 'multiple_choice',
    description: 'question, choices {text, label} and an answerKey naming one label.',
  },
  () => undefined,
);
