import { describe, expect, it } from 'vitest';
import { CHECKS_BY_TASK_TYPE } from '../../../src-shared/checks.ts';
import type { Sample, TaskType } from '../../../src-shared/schemas/sample.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import { runOperation } from './operation.ts';

const SAMPLES: Sample[] = [
  { task_type: 'text', text: 'A sentence.' },
  {
    task_type: 'multiple_choice',
    context: 'Which is a colour?',
    choices: ['red', 'seven'],
    answer_index: 0,
    style: 'qa',
  },
  { task_type: 'question_answer', question: 'What is 2 + 2?', answer: '4' },
  {
    task_type: 'conversation',
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ],
  },
];

describe('the UI’s list of checks per task type', () => {
  it('is what the audit reports, for every task type', async () => {
    const result = await runOperation(
      { operation: 'audit', samples: SAMPLES, config: { votes: 1 } },
      { backend: builtinBackend },
    );
    for (const sample of result.data) {
      const reported = Object.keys(sample.audit?.checks ?? {}).sort();
      expect(reported).toEqual([...CHECKS_BY_TASK_TYPE[sample.task_type as TaskType]].sort());
    }
  });
});
