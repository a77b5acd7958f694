import { z } from 'zod';
import { CHAT_MODELS } from './models.ts';
import {
  AuditRequest,
  AuditResponse,
  FixRequest,
  FixResponse,
  NativeError,
  RefineRequest,
  RefineResponse,
} from './schemas/native.ts';
import {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  ModelCard,
  ModelList,
  OpenAIErrorBody,
} from './schemas/openai.ts';
import {
  ResponseCreateRequest,
  ResponseObject,
  ResponseStreamEvent,
} from './schemas/openai-responses.ts';
import { PricingDocument } from './schemas/pricing.ts';

/**
 * The HTTP interface as data: every route with its schemas. The OpenAPI
 * document is generated from this table, and the route tests walk it, so a
 * route cannot exist in one place and be missing in the other.
 */

export type Security = 'api_key' | 'none' | 'owner_session';

export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  /** Alternative media type, e.g. the SSE stream of `/v1/chat/completions`. */
  stream?: { contentType: string; schema: z.ZodType; description: string };
  /** A body of bytes, not JSON (a download). */
  binary?: { contentType: string; description: string };
}

export interface RouteDoc {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  summary: string;
  tag: 'native' | 'openai' | 'meta' | 'owner';
  security: Security;
  request?: z.ZodType;
  /** A body of bytes, not JSON (an upload). */
  rawRequest?: { contentType: string; description: string };
  pathParams?: Record<string, string>;
  queryParams?: Record<string, { description: string; required: boolean }>;
  responses: Record<number, RouteResponse>;
}

const nativeErrors = (codes: number[]): Record<number, RouteResponse> =>
  Object.fromEntries(
    codes.map((status) => [
      status,
      { description: NATIVE_ERROR_MEANING[status] ?? 'Error', schema: NativeError },
    ]),
  );

const NATIVE_ERROR_MEANING: Record<number, string> = {
  401: 'Missing, unknown or revoked API key.',
  402: 'Insufficient credits.',
  403: 'Foreign Origin or Host.',
  413: 'Request body too large.',
  422: 'Validation error: empty or oversized list, malformed sample, sample too large, cost cap.',
  429: 'More requests per minute than the key may make.',
  502: 'The upstream model failed.',
  503: 'Service unavailable.',
};

const OPENAI_ERROR_MEANING: Record<number, string> = {
  400: '`invalid_request`: empty message, malformed sample, option out of range, unsupported task type.',
  401: '`invalid_api_key`: missing, unknown or revoked key.',
  402: '`insufficient_quota`: the balance cannot cover the request.',
  403: '`forbidden`: foreign Origin or Host.',
  404: '`model_not_found`: unknown model id.',
  413: '`context_length_exceeded`: a sample over the context, or the estimated cost over the cap.',
  429: '`rate_limit_exceeded`: more requests per minute than the key may make, or the upstream throttles.',
  502: '`service_error`: the upstream model failed; retry.',
  503: '`service_unavailable`: too many requests waiting; retry later.',
};

const openaiErrors = (codes: number[]): Record<number, RouteResponse> =>
  Object.fromEntries(
    codes.map((status) => [
      status,
      { description: OPENAI_ERROR_MEANING[status] ?? `Error (${status})`, schema: OpenAIErrorBody },
    ]),
  );

const nativeOperation = (
  verb: 'audit' | 'fix' | 'refine',
  request: z.ZodType,
  response: z.ZodType,
  summary: string,
): RouteDoc => ({
  method: 'post',
  path: `/${verb}`,
  operationId: verb,
  summary,
  tag: 'native',
  security: 'api_key',
  request,
  responses: {
    200: { description: 'The samples with their result blocks.', schema: response },
    ...nativeErrors([401, 402, 403, 413, 422, 429, 502, 503]),
  },
});

export const HTTP_ROUTES: readonly RouteDoc[] = [
  nativeOperation('audit', AuditRequest, AuditResponse, 'Audit samples with svc-audit-1'),
  nativeOperation('fix', FixRequest, FixResponse, 'Fix samples with svc-fix-1 (never worse)'),
  nativeOperation('refine', RefineRequest, RefineResponse, 'Audit, fix, then audit again'),
  {
    method: 'get',
    path: '/pricing',
    operationId: 'pricing',
    summary: 'Current rates and limits',
    tag: 'native',
    security: 'none',
    responses: {
      200: { description: 'Rates and limits.', schema: PricingDocument },
      ...nativeErrors([403]),
    },
  },
  {
    method: 'post',
    path: '/v1/chat/completions',
    operationId: 'createChatCompletion',
    summary: `Run audit, fix or refine chosen by the model (${CHAT_MODELS.map((m) => m.id).join(', ')})`,
    tag: 'openai',
    security: 'api_key',
    request: ChatCompletionRequest,
    responses: {
      200: {
        description: 'The result as the assistant message.',
        schema: ChatCompletion,
        stream: {
          contentType: 'text/event-stream',
          schema: ChatCompletionChunk,
          description:
            'With `stream: true`: `: keepalive` comments while the work runs, then `data:` chunks, ' +
            'then the finish chunk, then a last chunk with `choices: []` and `usage` (always sent; ' +
            'with `stream_options.include_usage` the other chunks carry `usage: null`), then ' +
            '`data: [DONE]`. A late failure is `data: {"error": ...}` then `[DONE]`.',
        },
      },
      ...openaiErrors([400, 401, 402, 403, 404, 413, 429, 502, 503]),
    },
  },
  {
    method: 'post',
    path: '/v1/responses',
    operationId: 'createResponse',
    summary: `Run audit, fix or refine through the Responses API (${CHAT_MODELS.map((m) => m.id).join(', ')})`,
    tag: 'openai',
    security: 'api_key',
    request: ResponseCreateRequest,
    responses: {
      200: {
        description:
          'The result as one `output_text` (the samples with their result blocks, as JSON).',
        schema: ResponseObject,
        stream: {
          contentType: 'text/event-stream',
          schema: ResponseStreamEvent,
          description:
            'With `stream: true`: `: keepalive` comments while the work runs, then the events ' +
            '`response.created`, `response.in_progress`, `response.output_item.added`, ' +
            '`response.content_part.added`, `response.output_text.delta`, ' +
            '`response.output_text.done`, `response.content_part.done`, ' +
            '`response.output_item.done` and `response.completed` (with `usage`). A late ' +
            'failure is an `error` event followed by `response.failed`.',
        },
      },
      ...openaiErrors([400, 401, 402, 403, 404, 413, 429, 502, 503]),
    },
  },
  {
    method: 'get',
    path: '/v1/models',
    operationId: 'listModels',
    summary: 'The versioned chat models with pricing and context length',
    tag: 'openai',
    security: 'api_key',
    responses: {
      200: { description: 'Model list.', schema: ModelList },
      ...openaiErrors([401, 403, 429]),
    },
  },
  {
    method: 'get',
    path: '/v1/models/{id}',
    operationId: 'retrieveModel',
    summary: 'One model card; unversioned aliases answer with the versioned card',
    tag: 'openai',
    security: 'api_key',
    pathParams: { id: 'Model id; contains a slash, e.g. `svc/audit-1`.' },
    responses: {
      200: { description: 'Model card.', schema: ModelCard },
      ...openaiErrors([401, 403, 404, 429]),
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This document',
    tag: 'meta',
    security: 'none',
    responses: { 200: { description: 'OpenAPI 3.1 document.' } },
  },
];
