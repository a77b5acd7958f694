import { stringField } from './fields.ts';
import { labelledChoiceShape } from './arc.ts';

/** CommonsenseQA (Hugging Face format): ARC's fields plus `question_concept`. */
export const commonsenseqaShape = labelledChoiceShape(
  {
    id: 'commonsenseqa',
    label: 'CommonsenseQA',
    taskType: 'multiple_choice',
    description: 'ARC fields plus question_concept; five lettered choices.',
  },
  (row) => stringField(row, 'question_concept'),
);
