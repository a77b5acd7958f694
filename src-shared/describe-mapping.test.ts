import { describe, expect, it } from 'vitest';
import { describeMapping } from './describe-mapping.ts';
import type { FieldMapping } from './schemas/mapping.ts';

const choice: FieldMapping = {
  task_type: 'multiple_choice',
  fields: { context: 'question', choices: ['A', 'B', 'C', 'D'], answer: 'answer' },
  answer_form: 'zero_based',
};
const chat: FieldMapping = {
  task_type: 'conversation',
  fields: {
    messages: 'dialog',
    role_key: 'speaker',
    content_key: 'utterance',
    roles: { human: 'user', bot: 'assistant' },
  },
};

describe('describeMapping', () => {
  it('writes the header for people: a role from its fields, the answer with its form', () => {
    expect(describeMapping(choice, 'header')).toBe(
      'context ← question · choices ← A + B + C + D · answer ← answer (zero-based)',
    );
    expect(describeMapping(chat, 'header')).toBe(
      'messages ← dialog · role_key ← speaker · content_key ← utterance · ' +
        'roles ← human→user, bot→assistant',
    );
  });

  it('writes the CLI flags that read rows with the mapping', () => {
    expect(describeMapping(choice, 'flags')).toBe(
      '--task-type multiple_choice --map context=question --map choices=A,B,C,D ' +
        '--map answer=answer (answers: zero-based)',
    );
    expect(describeMapping(chat, 'flags')).toBe(
      '--task-type conversation --map messages=dialog --map role_key=speaker ' +
        '--map content_key=utterance --map roles=human:user,bot:assistant',
    );
  });
});
