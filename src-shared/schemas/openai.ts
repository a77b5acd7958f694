import { z } from 'zod';

/** The OpenAI-compatible `/v1` bodies. */

const ContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

/** The most choices a chat completion gives (`n`). */
export const MAX_CHOICES = 16;

export const ChatRequestMessage = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
});

/**
 * A chat-completions request. Sampling parameters are accepted and ignored
 * (the models always run at their lowest temperature); `n` gives that many
 * choices, all the same (the run is made and billed once); unknown members
 * are tolerated as OpenAI clients send many.
 */
export const ChatCompletionRequest = z
  .looseObject({
    model: z.string().min(1),
    messages: z.array(ChatRequestMessage).min(1),
    stream: z.boolean().nullable().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
    temperature: z.number().nullable().optional(),
    top_p: z.number().nullable().optional(),
    max_tokens: z.int().nullable().optional(),
    max_completion_tokens: z.int().nullable().optional(),
    n: z
      .int()
      .min(1)
      .max(MAX_CHOICES)
      .nullable()
      .optional()
      .meta({
        description: `Choices to answer, 1 to ${MAX_CHOICES}: all the same (the models are deterministic), made and billed once.`,
      }),
    tools: z.array(z.unknown()).nullable().optional(),
    response_format: z.unknown().optional(),
  })
  .meta({ id: 'ChatCompletionRequest' });
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

const ModelTokens = z.object({ prompt_tokens: z.int().min(0), completion_tokens: z.int().min(0) });

/** svc's two extensions of OpenAI's usage, in chat completions and responses alike. */
export const UsageExtensions = {
  cost_usd: z.number().min(0).optional().meta({
    description: 'svc extension: what the request was charged (rounded up to the cent).',
  }),
  by_model: z
    .partialRecord(z.enum(['svc-audit-1', 'svc-fix-1']), ModelTokens)
    .optional()
    .meta({
      description:
        'svc extension: the tokens per engine model, each billed at its rate in GET /pricing.',
    }),
};

export const Usage = z
  .object({
    prompt_tokens: z.int().min(0),
    completion_tokens: z.int().min(0),
    total_tokens: z.int().min(0),
    ...UsageExtensions,
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof Usage>;

export const ChatCompletion = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.int(),
        message: z.object({
          role: z.literal('assistant'),
          content: z.string().meta({ description: 'JSON: the samples with their result blocks.' }),
          refusal: z.null(),
        }),
        finish_reason: z.literal('stop'),
        logprobs: z.null(),
      }),
    ),
    usage: Usage,
  })
  .meta({ id: 'ChatCompletion' });
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatCompletionChunk = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.int(),
        delta: z.object({
          role: z.literal('assistant').optional(),
          content: z.string().optional(),
        }),
        finish_reason: z.literal('stop').nullable(),
        logprobs: z.null(),
      }),
    ),
    usage: Usage.nullable().optional(),
  })
  .meta({ id: 'ChatCompletionChunk' });
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

export const OpenAIErrorBody = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      param: z.string().nullable(),
      code: z.string().nullable(),
    }),
  })
  .meta({ id: 'OpenAIError' });
export type OpenAIErrorBody = z.infer<typeof OpenAIErrorBody>;

export const ModelCard = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    created: z.int(),
    owned_by: z.literal('svc'),
    context_length: z.int().meta({ description: 'Largest sample, in tokens.' }),
    pricing: z.object({
      prompt: z.string().meta({ description: 'USD per input token, as a decimal string.' }),
      completion: z.string().meta({ description: 'USD per output token, as a decimal string.' }),
    }),
  })
  .meta({ id: 'Model' });
export type ModelCard = z.infer<typeof ModelCard>;

export const ModelList = z
  .object({ object: z.literal('list'), data: z.array(ModelCard) })
  .meta({ id: 'ModelList' });
export type ModelList = z.infer<typeof ModelList>;
