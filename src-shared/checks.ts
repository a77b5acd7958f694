import type { TaskType } from './schemas/sample.ts';

/**
 * The checks the audit reports per task type, in the order it reports them,
 * for the UI's filters. The engine defines them (src-main/engine/checks);
 * `src-main/service/checks.test.ts` audits a sample of each type and fails if
 * the two lists part ways.
 */
export const CHECKS_BY_TASK_TYPE: Record<TaskType, readonly string[]> = {
  text: ['fluency', 'coherence', 'formatting', 'safety'],
  multiple_choice: [
    'answer_index',
    'choices',
    'style',
    'answer_leak',
    'encoding',
    'formatting',
    'safety',
    'label_correct',
  ],
  question_answer: [
    'completeness',
    'arithmetic',
    'final_answer',
    'encoding',
    'formatting',
    'safety',
    'answer_correct',
  ],
  conversation: [
    'roles',
    'empty_turns',
    'alternation',
    'fluency',
    'coherence',
    'formatting',
    'safety',
  ],
};

/** The checks of a dataset holding these task types, each once. */
export function checksFor(taskTypes: readonly TaskType[]): string[] {
  return [...new Set(taskTypes.flatMap((type) => CHECKS_BY_TASK_TYPE[type]))];
}
