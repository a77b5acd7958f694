import { z } from 'zod';
import { MAX_METADATA_DEPTH, tooDeepAt } from '../nesting.ts';
import { CHAT_ROLES, RESULT_KEYS, TASK_TYPES } from './sample-kinds.ts';

export { CHAT_ROLES, RESULT_KEYS, TASK_TYPES };

/**
 * Samples: the four task types of the interface. Every task type is a loose
 * object, so keys a task type does not define are passthrough metadata and
 * come back untouched.
 */

export const TaskType = z.enum(TASK_TYPES);
export type TaskType = z.infer<typeof TaskType>;

/**
 * A chat turn. `role` is a free string on input on purpose: an invalid role is
 * a defect the audit reports (check `roles`) and the fix can repair, not a
 * reason to refuse the whole request.
 */
export const ChatMessage = z
  .looseObject({
    role: z.string().meta({ description: 'system, user or assistant; others are audited' }),
    content: z.string(),
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof ChatMessage>;

export const TextSample = z
  .looseObject({
    task_type: z.literal('text'),
    text: z.string().meta({ description: 'The text to rate or rewrite.' }),
  })
  .meta({ id: 'TextSample' });

export const MC_STYLES = ['continuation', 'qa'] as const;

export const MultipleChoiceSample = z
  .looseObject({
    task_type: z.literal('multiple_choice'),
    context: z.string().meta({ description: 'A sentence stem or a complete question.' }),
    choices: z.array(z.string()).meta({ description: 'The candidate answers.' }),
    answer_index: z
      .int()
      .meta({ description: 'Zero-based position in `choices` of the labelled answer.' }),
    style: z
      .enum(MC_STYLES)
      .optional()
      .meta({ description: '`continuation` (a stem to be continued) or `qa` (a question).' }),
  })
  .meta({ id: 'MultipleChoiceSample' });

export const QuestionAnswerSample = z
  .looseObject({
    task_type: z.literal('question_answer'),
    question: z.string(),
    answer: z
      .string()
      .meta({ description: 'A bare value, a sentence, or a worked solution (`#### N`).' }),
  })
  .meta({ id: 'QuestionAnswerSample' });

export const ConversationSample = z
  .looseObject({
    task_type: z.literal('conversation'),
    messages: z.array(ChatMessage).min(1),
    turns: z
      .enum(['last', 'all'])
      .optional()
      .meta({ description: 'How much of the transcript the models read (default `last`).' }),
  })
  .meta({ id: 'ConversationSample' });

export const Sample = z
  .discriminatedUnion('task_type', [
    TextSample,
    MultipleChoiceSample,
    QuestionAnswerSample,
    ConversationSample,
  ])
  .superRefine((sample, ctx) => {
    const path = tooDeepAt(sample, MAX_METADATA_DEPTH);
    if (path) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: `passthrough metadata nests deeper than ${MAX_METADATA_DEPTH} levels`,
      });
    }
  })
  .meta({
    id: 'Sample',
    description: `Keys a task type does not define are passthrough metadata, kept as sent; they nest at most ${MAX_METADATA_DEPTH} levels deep.`,
  });

export type TextSample = z.infer<typeof TextSample>;
export type MultipleChoiceSample = z.infer<typeof MultipleChoiceSample>;
export type QuestionAnswerSample = z.infer<typeof QuestionAnswerSample>;
export type ConversationSample = z.infer<typeof ConversationSample>;
export type Sample = z.infer<typeof Sample>;
