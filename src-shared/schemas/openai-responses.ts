import { z } from 'zod';
import { UsageExtensions } from './openai.ts';

/**
 * The subset of OpenAI's Responses API that `/v1/responses` answers: the
 * same three models as chat completions, the samples read from the last user
 * input exactly as chat reads the last user message, the result as one
 * `output_text`. Unknown members are tolerated (clients send many).
 */

const InputContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** An input item: a message (`type` absent or `message`), or another item kind, which is ignored. */
export const ResponseInputItem = z.looseObject({
  type: z.string().optional(),
  role: z.string().optional(),
  content: z.union([z.string(), z.array(InputContentPart), z.null()]).optional(),
});
export type ResponseInputItem = z.infer<typeof ResponseInputItem>;

export const ResponseCreateRequest = z
  .looseObject({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(ResponseInputItem).min(1)]).meta({
      description:
        'A string (one user message) or a list of input items; the samples are read from the ' +
        'last user message, as chat completions read it.',
    }),
    instructions: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'Accepted and ignored, like system messages.' }),
    stream: z.boolean().nullable().optional(),
    store: z.boolean().nullable().optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
    temperature: z.number().nullable().optional(),
    top_p: z.number().nullable().optional(),
    max_output_tokens: z.int().nullable().optional(),
    tools: z.array(z.unknown()).nullable().optional(),
    text: z.unknown().optional(),
  })
  .meta({ id: 'ResponseCreateRequest' });
export type ResponseCreateRequest = z.infer<typeof ResponseCreateRequest>;

export const ResponseUsage = z
  .object({
    input_tokens: z.int().min(0),
    input_tokens_details: z.object({ cached_tokens: z.int().min(0) }),
    output_tokens: z.int().min(0),
    output_tokens_details: z.object({ reasoning_tokens: z.int().min(0) }),
    total_tokens: z.int().min(0),
    ...UsageExtensions,
  })
  .meta({ id: 'ResponseUsage' });
export type ResponseUsage = z.infer<typeof ResponseUsage>;

export const ResponseOutputText = z.object({
  type: z.literal('output_text'),
  text: z.string().meta({ description: 'JSON: the samples with their result blocks.' }),
  annotations: z.array(z.never()),
});

export const ResponseOutputMessage = z
  .object({
    type: z.literal('message'),
    id: z.string(),
    status: z.enum(['in_progress', 'completed']),
    role: z.literal('assistant'),
    content: z.array(ResponseOutputText),
  })
  .meta({ id: 'ResponseOutputMessage' });
export type ResponseOutputMessage = z.infer<typeof ResponseOutputMessage>;

export const ResponseObject = z
  .object({
    id: z.string(),
    object: z.literal('response'),
    created_at: z.int(),
    status: z.enum(['in_progress', 'completed', 'failed']),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    incomplete_details: z.null(),
    instructions: z.string().nullable(),
    max_output_tokens: z.int().nullable(),
    model: z.string(),
    output: z.array(ResponseOutputMessage),
    parallel_tool_calls: z.boolean(),
    previous_response_id: z.null(),
    store: z.boolean(),
    temperature: z.number().nullable(),
    top_p: z.number().nullable(),
    text: z.object({ format: z.object({ type: z.literal('text') }) }),
    tool_choice: z.literal('auto'),
    tools: z.array(z.never()),
    truncation: z.literal('disabled'),
    usage: ResponseUsage.nullable(),
    metadata: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Response' });
export type ResponseObject = z.infer<typeof ResponseObject>;

const Sequenced = { sequence_number: z.int().min(0) };
const TextPosition = { item_id: z.string(), output_index: z.int(), content_index: z.int() };

/** The events of a streamed response, in the order they are sent. */
export const ResponseStreamEvent = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('response.created'), response: ResponseObject, ...Sequenced }),
    z.object({ type: z.literal('response.in_progress'), response: ResponseObject, ...Sequenced }),
    z.object({
      type: z.literal('response.output_item.added'),
      output_index: z.int(),
      item: ResponseOutputMessage,
      ...Sequenced,
    }),
    z.object({
      type: z.literal('response.content_part.added'),
      part: ResponseOutputText,
      ...TextPosition,
      ...Sequenced,
    }),
    z.object({
      type: z.literal('response.output_text.delta'),
      delta: z.string(),
      logprobs: z.array(z.never()),
      ...TextPosition,
      ...Sequenced,
    }),
    z.object({
      type: z.literal('response.output_text.done'),
      text: z.string(),
      logprobs: z.array(z.never()),
      ...TextPosition,
      ...Sequenced,
    }),
    z.object({
      type: z.literal('response.content_part.done'),
      part: ResponseOutputText,
      ...TextPosition,
      ...Sequenced,
    }),
    z.object({
      type: z.literal('response.output_item.done'),
      output_index: z.int(),
      item: ResponseOutputMessage,
      ...Sequenced,
    }),
    z.object({ type: z.literal('response.completed'), response: ResponseObject, ...Sequenced }),
    z.object({
      type: z.literal('error'),
      code: z.string().nullable(),
      message: z.string(),
      param: z.string().nullable(),
      ...Sequenced,
    }),
    z.object({ type: z.literal('response.failed'), response: ResponseObject, ...Sequenced }),
  ])
  .meta({ id: 'ResponseStreamEvent' });
export type ResponseStreamEvent = z.infer<typeof ResponseStreamEvent>;
