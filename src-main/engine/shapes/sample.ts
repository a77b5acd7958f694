import { validationError } from '../../../src-shared/errors.ts';
import { Sample, TASK_TYPES, type TaskType } from '../../../src-shared/schemas/sample.ts';
import { shown } from './fields.ts';
import { withoutResultKeys } from './merge.ts';
import type { Row, ShapeMapper } from './types.ts';

/** The fields each task type defines; the rest of a sample is passthrough metadata. */
export const TASK_FIELDS: Readonly<Record<TaskType, readonly string[]>> = {
  text: ['text'],
  multiple_choice: ['context', 'choices', 'answer_index', 'style'],
  question_answer: ['question', 'answer'],
  conversation: ['messages', 'turns'],
};

function isTaskType(value: unknown): value is TaskType {
  return (TASK_TYPES as readonly unknown[]).includes(value);
}

function fieldsOf(row: Row): readonly string[] {
  return isTaskType(row.task_type) ? ['task_type', ...TASK_FIELDS[row.task_type]] : ['task_type'];
}

/**
 * Rows that are samples already. A row matches when its `task_type` is one of
 * the four; the rest is validated by the `Sample` schema when it is mapped, so
 * a broken sample gets a precise error instead of falling to another shape.
 * `taskType` in the info is nominal: each row carries its own.
 */
export const sampleShape: ShapeMapper = {
  info: {
    id: 'sample',
    label: 'sample',
    taskType: 'text',
    description: 'Rows that are samples already, with a task_type; each row keeps its own type.',
  },
  owns: [],
  check(row) {
    if (!Object.hasOwn(row, 'task_type')) return '"task_type" is missing';
    return isTaskType(row.task_type)
      ? undefined
      : `"task_type" must be one of ${TASK_TYPES.join(', ')}, not ${shown(row.task_type)}`;
  },
  toSample(row) {
    const parsed = Sample.safeParse(withoutResultKeys(row));
    if (!parsed.success) throw validationError(parsed.error, 'sample');
    return parsed.data;
  },
  toRow(sample, original) {
    const patch: Row = {};
    for (const key of new Set([...fieldsOf(original), ...fieldsOf(sample)]))
      patch[key] = sample[key];
    return patch;
  },
};
