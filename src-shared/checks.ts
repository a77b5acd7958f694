import type { TaskType } from './schemas/sample.ts';

/**
 * The checks the audit reports per task type, in the order it reports them:
 * the engine runs these lists (src-main/engine/checks), the UI filters by
 * them. `label_correct` and `answer_correct` come after the rule checks.
 */
export const TEXT_DIMENSIONS = ['fluency', 'coherence', 'formatting', 'safety'] as const;
export const MULTIPLE_CHOICE_CHECKS = [
  'answer_index',
  'choices',
  'style',
  'answer_leak',
  'encoding',
  'formatting',
  'safety',
] as const;
export const QUESTION_ANSWER_CHECKS = [
  'completeness',
  'arithmetic',
  'final_answer',
  'encoding',
  'formatting',
  'safety',
] as const;
export const CONVERSATION_CHECKS = [
  'roles',
  'empty_turns',
  'alternation',
  ...TEXT_DIMENSIONS,
] as const;

export const CHECKS_BY_TASK_TYPE: Record<TaskType, readonly string[]> = {
  text: TEXT_DIMENSIONS,
  multiple_choice: [...MULTIPLE_CHOICE_CHECKS, 'label_correct'],
  question_answer: [...QUESTION_ANSWER_CHECKS, 'answer_correct'],
  conversation: CONVERSATION_CHECKS,
};

/**
 * The checks that look across the samples of a run (src-main/engine/dataset),
 * on every task type, after the per-sample ones.
 */
export const DATASET_CHECKS = ['duplicates', 'contamination'] as const;
export const DUPLICATES_CHECK = DATASET_CHECKS[0];
/** Whether a row holds evaluation items: public benchmarks' test sets, the user's own. */
export const CONTAMINATION_CHECK = DATASET_CHECKS[1];

/** The checks of a dataset holding these task types, each once. */
export function checksFor(taskTypes: readonly TaskType[]): string[] {
  return [...new Set(taskTypes.flatMap((type) => CHECKS_BY_TASK_TYPE[type]))];
}
