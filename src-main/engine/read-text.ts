import type { Sample } from '../../src-shared/schemas/sample.ts';
import { turnsRead } from './checks/conversation.ts';

/** The text a model reads of a sample: what usage is counted on. */
export function textRead(sample: Sample): string {
  switch (sample.task_type) {
    case 'text':
      return sample.text;
    case 'multiple_choice':
      return [sample.context, ...sample.choices].join('\n');
    case 'question_answer':
      return `${sample.question}\n${sample.answer}`;
    case 'conversation': {
      const roles = sample.messages.map((m) => m.role).join(' ');
      const read = turnsRead(sample).map((i) => sample.messages[i]?.content ?? '');
      return [roles, ...read].join('\n');
    }
  }
}
