import { sampleOf, stringField } from './fields.ts';
import type { ShapeMapper } from './types.ts';

/** Plain text: `{text}`, e.g. pretraining or web text. */
export const textShape: ShapeMapper = {
  info: {
    id: 'text',
    label: 'plain text',
    taskType: 'text',
    description: 'A text field, rated for fluency, coherence, formatting and safety.',
  },
  owns: ['text'],
  check: (row) => stringField(row, 'text'),
  toSample: (row) => ({ task_type: 'text', text: row.text as string }),
  toRow: (sample) => ({ text: sampleOf(sample, 'text', textShape.info).text }),
};
