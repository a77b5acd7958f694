import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { AppError } from '../../../src-shared/errors.ts';
import { findChatModel, type ChatModel } from '../../../src-shared/models.ts';
import { MAX_SAMPLES_PER_NATIVE_REQUEST } from '../../../src-shared/schemas/native.ts';
import type { BilledPipeline } from '../../service/billing/billed-pipeline.ts';
import type { BilledResult } from '../../service/billing/billed-run.ts';
import { microToUsd } from '../../service/billing/money.ts';
import type { CallerEnv } from '../caller.ts';
import { asAppError } from '../errors.ts';
import { chatOperation } from './chat-request.ts';

/**
 * What `/v1/chat/completions` and `/v1/responses` share: the model chosen by
 * name, the samples read from the last user message, every refusal before
 * any work or stream (model, samples, then the billed pipeline's: context,
 * cost cap, a full queue, the one-cent hold), then the billed work whose body
 * is rendered before the charge is settled.
 */
export interface V1RouteOptions {
  /** How often a streamed response sends `: keepalive` while the work runs. */
  keepAliveMs: number;
}

export interface V1Operation {
  model: ChatModel;
  /** Runs the work, renders the body from the result (before the settle) and returns it. */
  run<T>(signal: AbortSignal, render: (billed: BilledResult) => T): Promise<T>;
  /** Releases the hold of an operation that did not run (no-op after a run). */
  release(memo: string): void;
}

export async function startV1Operation(
  pipeline: BilledPipeline,
  c: Context<CallerEnv>,
  modelName: string,
  content: string,
): Promise<V1Operation> {
  const model = findChatModel(modelName);
  if (!model) {
    throw new AppError('model_not_found', `The model '${modelName}' does not exist`, {
      param: 'model',
    });
  }
  const { request, samplesPointer } = chatOperation(model, content);
  const opened = await pipeline.open({
    caller: { ...c.get('caller'), source: 'v1' },
    requestId: c.get('requestId'),
    request,
    settings: c.get('settings'),
    samplesPointer,
  });
  return {
    model,
    release: (memo) => opened.release(memo),
    run: (signal, render) =>
      opened.run({ signal, batchSize: MAX_SAMPLES_PER_NATIVE_REQUEST }, render),
  };
}

/**
 * svc's extensions of OpenAI's usage, shared by both usage shapes: the
 * charge, and the tokens per engine model, so a client can reproduce the
 * bill from `GET /pricing` (a refine spends tokens of both models at their
 * own rates).
 */
export function usageExtensions(billed: BilledResult): {
  cost_usd: number;
  by_model: Record<string, { prompt_tokens: number; completion_tokens: number }>;
} {
  return {
    cost_usd: microToUsd(billed.chargedMicro),
    by_model: Object.fromEntries(
      Object.entries(billed.result.usage.byModel()).map(([model, u]) => [
        model,
        { prompt_tokens: u.input_tokens, completion_tokens: u.output_tokens },
      ]),
    ),
  };
}

/**
 * A streamed `/v1` answer: keepalive comments while the work runs, an abort
 * signal that fires when the client goes away, and a late failure handed to
 * `onError` (unless the client is gone) after the hold is released.
 */
export function streamV1(
  c: Context<CallerEnv>,
  operation: V1Operation,
  keepAliveMs: number,
  handlers: {
    body: (stream: SSEStreamingApi, signal: AbortSignal) => Promise<void>;
    onError: (stream: SSEStreamingApi, error: AppError) => Promise<void>;
    end?: (stream: SSEStreamingApi) => Promise<void>;
  },
): Response {
  const requestId = c.get('requestId');
  return streamSSE(c, async (stream) => {
    const controller = new AbortController();
    stream.onAbort(() => controller.abort());
    c.req.raw.signal.addEventListener('abort', () => controller.abort(), { once: true });
    const keepalive = setInterval(() => {
      void stream.write(': keepalive\n\n');
    }, keepAliveMs);
    try {
      await handlers.body(stream, controller.signal);
    } catch (error) {
      clearInterval(keepalive);
      operation.release('failed');
      if (!controller.signal.aborted) await handlers.onError(stream, asAppError(error, requestId));
    } finally {
      clearInterval(keepalive);
      operation.release('not run');
    }
    if (!controller.signal.aborted && handlers.end) await handlers.end(stream);
  });
}
