import { Hono, type MiddlewareHandler } from 'hono';
import {
  ChatCompletionRequest,
  type ChatCompletion,
  type ChatCompletionChunk,
  type Usage,
} from '../../../src-shared/schemas/openai.ts';
import type { BilledResult } from '../../service/billing/billed-run.ts';
import { lastUserContent } from './chat-request.ts';
import type { BilledPipeline } from '../../service/billing/billed-pipeline.ts';
import type { CallerEnv } from '../caller.ts';
import { openAIBody } from '../errors.ts';
import { readBody } from '../json-body.ts';
import { randomHex } from '../random-id.ts';
import {
  startV1Operation,
  streamV1,
  usageExtensions,
  type V1RouteOptions,
} from './v1-operation.ts';

/** The whole pipeline's tokens, plus svc's extensions (the charge, the tokens per model). */
const usageOf = (billed: BilledResult): Usage => ({
  prompt_tokens: billed.input_tokens,
  completion_tokens: billed.output_tokens,
  total_tokens: billed.input_tokens + billed.output_tokens,
  ...usageExtensions(billed),
});

/**
 * `POST /v1/chat/completions`. Everything that can be refused is refused
 * before any work and before a stream opens (auth, rate limit, model, body,
 * options, context, cost cap, the one-cent hold). After that, a streamed
 * response reports a late failure as `data: {"error": ...}` then `[DONE]`.
 * A stream lays usage out as OpenAI does: a last chunk with `choices: []`
 * and `usage` (always sent), and `usage: null` on the others when the client
 * asked for `stream_options.include_usage`.
 */
export function v1ChatRoutes(
  pipeline: BilledPipeline,
  auth: MiddlewareHandler<CallerEnv>,
  options: V1RouteOptions,
): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>();
  app.post('/v1/chat/completions', auth, async (c) => {
    const body = await readBody(c, ChatCompletionRequest);
    const operation = await startV1Operation(
      pipeline,
      c,
      body.model,
      lastUserContent(body.messages),
    );
    const model = operation.model.id;
    // `n` choices, all the same: the models are deterministic, so the run is made once.
    const indices = Array.from({ length: body.n ?? 1 }, (_, index) => index);
    const id = `chatcmpl-${randomHex(12)}`;
    const created = Math.floor(Date.now() / 1000);

    if (!body.stream) {
      try {
        const text = await operation.run(c.req.raw.signal, (billed) => {
          const content = JSON.stringify(billed.result.data);
          return JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model,
            choices: indices.map((index) => ({
              index,
              message: { role: 'assistant', content, refusal: null },
              finish_reason: 'stop',
              logprobs: null,
            })),
            usage: usageOf(billed),
          } satisfies ChatCompletion);
        });
        return c.body(text, 200, { 'content-type': 'application/json' });
      } finally {
        operation.release('not run');
      }
    }

    const withUsageNull = body.stream_options?.include_usage === true;
    const chunk = (choices: ChatCompletionChunk['choices'], usage: Usage | null = null): string =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices,
        ...(usage ? { usage } : withUsageNull ? { usage: null } : {}),
      } satisfies ChatCompletionChunk);
    const delta = (
      d: ChatCompletionChunk['choices'][number]['delta'],
      finish: 'stop' | null,
    ): ChatCompletionChunk['choices'] =>
      indices.map((index) => ({ index, delta: d, finish_reason: finish, logprobs: null }));

    return streamV1(c, operation, options.keepAliveMs, {
      body: async (stream, signal) => {
        await stream.writeSSE({ data: chunk(delta({ role: 'assistant', content: '' }, null)) });
        // Every chunk is serialised before the charge is settled.
        const chunks = await operation.run(signal, (billed) => [
          chunk(delta({ content: JSON.stringify(billed.result.data) }, null)),
          chunk(delta({}, 'stop')),
          chunk([], usageOf(billed)),
        ]);
        for (const data of chunks) await stream.writeSSE({ data });
      },
      onError: (stream, error) => stream.writeSSE({ data: JSON.stringify(openAIBody(error)) }),
      end: (stream) => stream.writeSSE({ data: '[DONE]' }),
    });
  });
  return app;
}
