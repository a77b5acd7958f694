import type { FieldMapping } from '../../../src-shared/schemas/mapping.ts';
import type { Row } from '../shapes/types.ts';
import { detectAnswerForm } from './answer-form.ts';
import { choicesOf } from './mapper.ts';
import { getPath } from './paths.ts';

/**
 * Field mappings: any file's own field names mapped to the roles of a task
 * type (see `src-shared/schemas/mapping.ts`).
 */
export { mappingShape, backLike } from './mapper.ts';
export { fieldsOf } from './fields-of.ts';
export { shapeMapping, guessMapping } from './prefill.ts';
export { getPath, setPath, hasPath } from './paths.ts';
export { describeForm } from './answer-form.ts';

const listOf = (source: string | readonly string[] | undefined): readonly string[] =>
  source === undefined ? [] : typeof source === 'string' ? [source] : source;

/**
 * The mapping with its answer form settled: a multiple-choice mapping without
 * one gets the form its first rows show (see `detectAnswerForm`).
 */
export function withAnswerForm(mapping: FieldMapping, rows: readonly Row[]): FieldMapping {
  if (mapping.task_type !== 'multiple_choice' || mapping.answer_form !== undefined) return mapping;
  const answerPath = listOf(mapping.fields.answer)[0];
  const choicePaths = listOf(mapping.fields.choices);
  if (answerPath === undefined) return mapping;
  // The choices as the compiled mapping reads them (an empty column in the
  // middle keeps its place), so a detected letter or index means the same
  // choice in detection and in mapping.
  const seen = rows.map((row) => ({
    answer: getPath(row, answerPath),
    choices: choicesOf(row, choicePaths) ?? [],
  }));
  const form = detectAnswerForm(seen);
  return form ? { ...mapping, answer_form: form } : mapping;
}
