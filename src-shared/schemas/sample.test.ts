import { describe, expect, it } from 'vitest';
import { Sample } from './sample.ts';

const valid = {
  text: { task_type: 'text', text: 'The quick brown fox.' },
  multiple_choice: {
    task_type: 'multiple_choice',
    context: 'What is 2 + 2?',
    choices: ['3', '4'],
    answer_index: 1,
    style: 'qa',
  },
  question_answer: { task_type: 'question_answer', question: 'What is 2+2?', answer: '#### 4' },
  conversation: {
    task_type: 'conversation',
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ],
    turns: 'all',
  },
} as const;

describe('Sample', () => {
  it.each(Object.entries(valid))('accepts a valid %s sample', (_type, sample) => {
    expect(Sample.safeParse(sample).success).toBe(true);
  });

  it.each(Object.entries(valid))('keeps passthrough keys on %s samples', (_type, sample) => {
    const withMeta = { ...sample, id: 'row-7', source: { split: 'val' } };
    expect(Sample.parse(withMeta)).toEqual(withMeta);
  });

  const invalid: [string, unknown, string][] = [
    ['no task_type', { text: 'x' }, 'task_type'],
    ['unknown task_type', { task_type: 'image', url: 'x' }, 'task_type'],
    ['text without text', { task_type: 'text' }, 'text'],
    ['text with a number', { task_type: 'text', text: 42 }, 'text'],
    [
      'mc with a fractional answer_index',
      { task_type: 'multiple_choice', context: 'c', choices: ['a'], answer_index: 0.5 },
      'answer_index',
    ],
    [
      'mc with non-string choices',
      { task_type: 'multiple_choice', context: 'c', choices: [1, 2], answer_index: 0 },
      'choices',
    ],
    [
      'mc with an unknown style',
      { task_type: 'multiple_choice', context: 'c', choices: ['a'], answer_index: 0, style: 'x' },
      'style',
    ],
    ['qa without answer', { task_type: 'question_answer', question: 'q' }, 'answer'],
    ['conversation without messages', { task_type: 'conversation', messages: [] }, 'messages'],
    [
      'conversation with non-string content',
      { task_type: 'conversation', messages: [{ role: 'user', content: null }] },
      'messages',
    ],
    [
      'conversation with a bad turns value',
      { task_type: 'conversation', messages: [{ role: 'user', content: 'x' }], turns: 'first' },
      'turns',
    ],
    ['a bare string', 'hello', ''],
  ];

  it.each(invalid)('rejects %s', (_name, sample, field) => {
    const result = Sample.safeParse(sample);
    expect(result.success).toBe(false);
    if (!result.success && field) {
      expect(result.error.issues.map((i) => i.path.join('.')).join(' ')).toContain(field);
    }
  });

  it('accepts an unknown role, which the audit reports instead', () => {
    const sample = { task_type: 'conversation', messages: [{ role: 'human', content: 'x' }] };
    expect(Sample.safeParse(sample).success).toBe(true);
  });
});
