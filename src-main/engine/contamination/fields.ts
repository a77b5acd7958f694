import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { EvalItem } from './build.ts';
import type { TextField } from './match.ts';

/**
 * A sample's text fields as contamination matching reads them, in order,
 * each with its JSON Pointer (for the issue's `path` and `span`). Metadata
 * is not read: a benchmark item copied into training data is copied into
 * what the model trains on.
 */
export function sampleFields(sample: Sample): TextField[] {
  switch (sample.task_type) {
    case 'text':
      return [{ path: '/text', text: sample.text }];
    case 'multiple_choice':
      return [
        { path: '/context', text: sample.context },
        ...sample.choices.map((text, i) => ({ path: `/choices/${i}`, text })),
      ];
    case 'question_answer':
      return [
        { path: '/question', text: sample.question },
        { path: '/answer', text: sample.answer },
      ];
    case 'conversation':
      return sample.messages.map((message, i) => ({
        path: `/messages/${i}/content`,
        text: message.content,
      }));
  }
}

/**
 * A row of a user's evaluation set as an item: what is asked, and what
 * answers it. A conversation's question is its non-assistant turns, its
 * answer the assistant's.
 */
export function sampleAsItem(sample: Sample): EvalItem {
  switch (sample.task_type) {
    case 'text':
      return { question: sample.text };
    case 'multiple_choice':
      return { question: sample.context, answer: sample.choices[sample.answer_index] };
    case 'question_answer':
      return { question: sample.question, answer: sample.answer };
    case 'conversation': {
      const asked = sample.messages.filter((m) => m.role !== 'assistant').map((m) => m.content);
      const answered = sample.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
      return { question: asked.join('\n'), answer: answered.join('\n') };
    }
  }
}
