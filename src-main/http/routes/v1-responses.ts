import { Hono, type MiddlewareHandler } from 'hono';
import type { SSEStreamingApi } from 'hono/streaming';
import {
  ResponseCreateRequest,
  type ResponseObject,
  type ResponseOutputMessage,
  type ResponseStreamEvent,
  type ResponseUsage,
} from '../../../src-shared/schemas/openai-responses.ts';
import type { BilledResult } from '../../service/billing/billed-run.ts';
import { lastUserInput } from './chat-request.ts';
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

const usageOf = (billed: BilledResult): ResponseUsage => ({
  input_tokens: billed.input_tokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: billed.output_tokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: billed.input_tokens + billed.output_tokens,
  ...usageExtensions(billed),
});

/**
 * `POST /v1/responses`: the Responses API over the same operations, refusals,
 * billing and limits as chat completions (they share one rate-limit window).
 * The result is one `output_text` holding the samples as JSON. Nothing is
 * stored: `store` is accepted and answered as false, as there is no
 * `GET /v1/responses/{id}` to read a stored response back.
 */
export function v1ResponsesRoutes(
  pipeline: BilledPipeline,
  auth: MiddlewareHandler<CallerEnv>,
  options: V1RouteOptions,
): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>();
  app.post('/v1/responses', auth, async (c) => {
    const body = await readBody(c, ResponseCreateRequest);
    const operation = await startV1Operation(pipeline, c, body.model, lastUserInput(body.input));
    const id = `resp_${randomHex(16)}`;
    const messageId = `msg_${randomHex(16)}`;
    const created = Math.floor(Date.now() / 1000);
    const message = (text: string | null): ResponseOutputMessage => ({
      type: 'message',
      id: messageId,
      status: text === null ? 'in_progress' : 'completed',
      role: 'assistant',
      content: text === null ? [] : [{ type: 'output_text', text, annotations: [] }],
    });
    const response = (
      status: ResponseObject['status'],
      output: ResponseOutputMessage[],
      usage: ResponseUsage | null,
      error: ResponseObject['error'] = null,
    ): ResponseObject => ({
      id,
      object: 'response',
      created_at: created,
      status,
      error,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      model: operation.model.id,
      output,
      parallel_tool_calls: false,
      previous_response_id: null,
      store: false,
      temperature: body.temperature ?? null,
      top_p: body.top_p ?? null,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      truncation: 'disabled',
      usage,
      metadata: body.metadata ?? {},
    });

    if (!body.stream) {
      try {
        const text = await operation.run(c.req.raw.signal, (billed) =>
          JSON.stringify(
            response('completed', [message(JSON.stringify(billed.result.data))], usageOf(billed)),
          ),
        );
        return c.body(text, 200, { 'content-type': 'application/json' });
      } finally {
        operation.release('not run');
      }
    }

    let sequence = 0;
    const event = (e: ResponseStreamEvent) => ({ event: e.type, data: JSON.stringify(e) });
    const send = (stream: SSEStreamingApi, e: ResponseStreamEvent) => stream.writeSSE(event(e));
    const at = { item_id: messageId, output_index: 0, content_index: 0 };
    return streamV1(c, operation, options.keepAliveMs, {
      body: async (stream, signal) => {
        const started = response('in_progress', [], null);
        await send(stream, {
          type: 'response.created',
          response: started,
          sequence_number: sequence++,
        });
        await send(stream, {
          type: 'response.in_progress',
          response: started,
          sequence_number: sequence++,
        });
        // Every event after the work is serialised before the charge is settled.
        const events = await operation.run(signal, (billed) => {
          const text = JSON.stringify(billed.result.data);
          const part = { type: 'output_text' as const, text, annotations: [] };
          const empty = { ...part, text: '' };
          const done = message(text);
          const list: ResponseStreamEvent[] = [
            {
              type: 'response.output_item.added',
              output_index: 0,
              item: message(null),
              sequence_number: sequence++,
            },
            {
              type: 'response.content_part.added',
              part: empty,
              ...at,
              sequence_number: sequence++,
            },
            {
              type: 'response.output_text.delta',
              delta: text,
              logprobs: [],
              ...at,
              sequence_number: sequence++,
            },
            {
              type: 'response.output_text.done',
              text,
              logprobs: [],
              ...at,
              sequence_number: sequence++,
            },
            { type: 'response.content_part.done', part, ...at, sequence_number: sequence++ },
            {
              type: 'response.output_item.done',
              output_index: 0,
              item: done,
              sequence_number: sequence++,
            },
            {
              type: 'response.completed',
              response: response('completed', [done], usageOf(billed)),
              sequence_number: sequence++,
            },
          ];
          return list.map(event);
        });
        for (const e of events) await stream.writeSSE(e);
      },
      // A late failure: the error event, then the response marked failed (clients read either).
      onError: async (stream, error) => {
        const { error: body } = openAIBody(error);
        await send(stream, {
          type: 'error',
          code: body.code,
          message: body.message,
          param: body.param,
          sequence_number: sequence++,
        });
        await send(stream, {
          type: 'response.failed',
          response: response('failed', [], null, {
            code: body.code ?? body.type,
            message: body.message,
          }),
          sequence_number: sequence++,
        });
      },
    });
  });
  return app;
}
