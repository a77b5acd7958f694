import { randomBytes } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { AppError } from '../../../src-shared/errors.ts';
import { findChatModel } from '../../../src-shared/models.ts';
import { MAX_SAMPLES_PER_NATIVE_REQUEST } from '../../../src-shared/schemas/native.ts';
import {
  ChatCompletionRequest,
  type ChatCompletion,
  type ChatCompletionChunk,
  type Usage,
} from '../../../src-shared/schemas/openai.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { openBilling, preflight, type BilledResult } from '../../service/billed-run.ts';
import { chatOperation, lastUserContent } from '../../service/chat-request.ts';
import type { ServiceContext } from '../../service/context.ts';
import { microToUsd } from '../../service/money.ts';
import type { CallerEnv } from '../caller.ts';
import { asAppError, openAIBody } from '../errors.ts';
import type { Gate } from '../gate.ts';
import { readBody } from '../json-body.ts';

export interface ChatRouteOptions {
  /** How often a streamed response sends `: keepalive` while the work runs. */
  keepAliveMs: number;
}

/**
 * The whole pipeline's tokens, plus two extensions: the charge, and the
 * tokens per engine model, so a client can reproduce the bill from
 * `GET /pricing` (a refine spends tokens of both models at their own rates).
 */
const usageOf = (billed: BilledResult): Usage => ({
  prompt_tokens: billed.input_tokens,
  completion_tokens: billed.output_tokens,
  total_tokens: billed.input_tokens + billed.output_tokens,
  cost_usd: microToUsd(billed.chargedMicro),
  by_model: Object.fromEntries(
    Object.entries(billed.result.usage.byModel()).map(([model, u]) => [
      model,
      { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens },
    ]),
  ),
});

/**
 * `POST /v1/chat/completions`. Everything that can be refused is refused
 * before any work and before a stream opens (auth, rate limit, model, body,
 * options, context, cost cap, the one-cent hold). After that, a streamed
 * response reports a late failure as `data: {"error": ...}` then `[DONE]`.
 */
export function v1ChatRoutes(
  ctx: ServiceContext,
  backend: () => EngineBackend,
  gate: Gate,
  auth: MiddlewareHandler<CallerEnv>,
  options: ChatRouteOptions,
): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>();
  app.post('/v1/chat/completions', auth, async (c) => {
    const body = await readBody(c, ChatCompletionRequest);
    const model = findChatModel(body.model);
    if (!model) {
      throw new AppError('model_not_found', `The model '${body.model}' does not exist`, {
        param: 'model',
      });
    }
    const { request, samplesPointer } = chatOperation(model, lastUserContent(body.messages));
    preflight(ctx, request, samplesPointer);
    const requestId = c.get('requestId');
    const caller = c.get('caller');
    const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    gate.assertRoom();
    const billing = openBilling(ctx, { ...caller, source: 'v1' }, requestId);
    const work = (signal: AbortSignal) =>
      gate.run(
        () =>
          billing.run(request, {
            backend: backend(),
            signal,
            batchSize: MAX_SAMPLES_PER_NATIVE_REQUEST,
          }),
        signal,
      );

    if (!body.stream) {
      let billed: BilledResult;
      try {
        billed = await work(c.req.raw.signal);
      } finally {
        billing.release('not run');
      }
      const completion: ChatCompletion = {
        id,
        object: 'chat.completion',
        created,
        model: model.id,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: JSON.stringify(billed.result.data),
              refusal: null,
            },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: usageOf(billed),
      };
      return c.json(completion);
    }

    const chunk = (
      delta: ChatCompletionChunk['choices'][number]['delta'],
      finish: 'stop' | null,
      usage?: Usage,
    ) =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model: model.id,
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
        ...(usage ? { usage } : {}),
      } satisfies ChatCompletionChunk);

    return streamSSE(c, async (stream) => {
      const controller = new AbortController();
      stream.onAbort(() => controller.abort());
      c.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true });
      const keepalive = setInterval(() => {
        void stream.write(': keepalive\n\n');
      }, options.keepAliveMs);
      try {
        await stream.writeSSE({ data: chunk({ role: 'assistant', content: '' }, null) });
        const billed = await work(controller.signal);
        clearInterval(keepalive);
        await stream.writeSSE({
          data: chunk({ content: JSON.stringify(billed.result.data) }, null),
        });
        await stream.writeSSE({ data: chunk({}, 'stop', usageOf(billed)) });
      } catch (error) {
        clearInterval(keepalive);
        billing.release('failed');
        if (!controller.signal.aborted) {
          await stream.writeSSE({ data: JSON.stringify(openAIBody(asAppError(error, requestId))) });
        }
      } finally {
        clearInterval(keepalive);
        billing.release('not run');
      }
      if (!controller.signal.aborted) await stream.writeSSE({ data: '[DONE]' });
    });
  });
  return app;
}
