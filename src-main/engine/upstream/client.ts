import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import { countTokens } from '../tokens.ts';
import type { TokenUsage } from '../usage.ts';
import { describeServer, serverKey, type UpstreamConfig } from './config.ts';
import { isTransient, scrub, upstreamFault, withoutKey, type FaultContext } from './faults.ts';
import { describeZodError, jsonCandidates, strictJsonSchema } from './json.ts';
import { limiterFor } from './limiter.ts';

/**
 * One model role on an OpenAI-compatible server, asked for JSON.
 *
 * Structured output: `response_format: json_schema` (strict) first; a server
 * that refuses it (400/422) is asked with `json_object`, then with no
 * response_format at all (the schema is in the prompt either way, and the
 * answer is parsed leniently). Temperature 0, or none when the server
 * refuses it. What worked is remembered per server and model, for the life of
 * the process.
 *
 * Retries, ours alone (the SDK's maxRetries is 0):
 * - a malformed answer (not JSON, not the schema, not fitting the sample, or a
 *   body that is no chat completion) is asked again up to MALFORMED_RETRIES
 *   times, with the problem named; then `service_error`;
 * - a lost connection or a 502/503/504 is tried once more after
 *   TRANSIENT_RETRY_DELAY_MS (a restarting server, a proxy hiccup);
 * - never: refused connections (the server is down), timeouts (the time was
 *   spent already), 429 (the caller gets it with Retry-After and decides),
 *   other 4xx/5xx.
 * Every answer's tokens count, retries included: the server spent them. A
 * body that is no chat completion at all counts nothing (nothing says what,
 * if anything, was spent on it).
 */

export const MALFORMED_RETRIES = 2;
export const TRANSIENT_RETRY_DELAY_MS = 500;

export type OutputMode = 'json_schema' | 'json_object' | 'plain';

interface Capabilities {
  mode: OutputMode;
  /** The temperature sent: the lowest the server accepts; null sends none (its own default). */
  temperature: number | null;
}

/**
 * Temperatures to try, lowest first: 0, then a small positive value for
 * servers that demand one (some refuse 0 as "must be strictly positive"),
 * then none at all (models that accept only their default).
 */
const TEMPERATURES = [0, 0.01] as const;

const DEFAULT_CAPABILITIES: Capabilities = { mode: 'json_schema', temperature: 0 };

function nextTemperature(current: number | null, message: string): number | null {
  // "Only the default (1) value is supported": no lower value will do.
  if (/only the default/i.test(message)) return null;
  const at = TEMPERATURES.findIndex((t) => t === current);
  return at === -1 ? null : (TEMPERATURES[at + 1] ?? null);
}
const capabilities = new Map<string, Capabilities>();
const discoveredModels = new Map<string, string>();

/** What is known to work with a server and model (for tests and diagnostics). */
export function knownCapabilities(
  config: Pick<UpstreamConfig, 'baseURL' | 'model'>,
): Capabilities | undefined {
  return capabilities.get(serverKey(config));
}

export interface StructuredRequest<T> {
  /** The json_schema name, e.g. `svc_audit_text`. */
  name: string;
  system: string;
  user: string;
  schema: z.ZodType<T>;
  /** A check of the parsed answer against the sample: a problem to name, or null. */
  check?: (value: T) => string | null;
}

export interface StructuredAnswer<T> {
  value: T;
  usage: TokenUsage;
  /** Upstream calls made (1 + retries). */
  calls: number;
}

type Message = OpenAI.Chat.ChatCompletionMessageParam;

/** The part of a chat completion this client reads; anything else is junk. */
const Completion = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }) }))
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) })
    .nullable()
    .optional(),
});

const NOTHING: TokenUsage = { input_tokens: 0, output_tokens: 0 };

interface Reply {
  content: string | null;
  usage: TokenUsage;
  caps: Capabilities;
  problem?: string;
}

/**
 * Tokens by the project's tokenizer, for a server that reports no `usage`
 * (some llama.cpp and LM Studio builds): what was sent and what came back.
 */
function countedUsage(messages: readonly Message[], content: string): TokenUsage {
  let input = 0;
  for (const m of messages) input += typeof m.content === 'string' ? countTokens(m.content) : 0;
  return { input_tokens: input, output_tokens: countTokens(content) };
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AppError('cancelled', 'the request was cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class UpstreamClient {
  readonly config: UpstreamConfig;
  readonly #openai: OpenAI;

  constructor(config: UpstreamConfig) {
    this.config = config;
    this.#openai = new OpenAI({
      baseURL: config.baseURL,
      // The SDK insists on a key; without one the Authorization header is removed below.
      apiKey: config.apiKey ?? 'none',
      // Nothing from this process's environment (OPENAI_ORG_ID, OPENAI_ADMIN_KEY...) goes upstream.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      ...(config.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      maxRetries: 0,
      timeout: config.timeoutMs,
      logLevel: 'off',
    });
  }

  get server(): string {
    return describeServer(this.config.baseURL, this.config.model);
  }

  #faultContext(signal: AbortSignal | undefined): FaultContext {
    return {
      server: this.server,
      timeoutMs: this.config.timeoutMs,
      apiKey: this.config.apiKey,
      signal,
    };
  }

  /** Asks for one JSON answer that passes `request.schema` and `request.check`. */
  async complete<T>(
    request: StructuredRequest<T>,
    signal?: AbortSignal,
  ): Promise<StructuredAnswer<T>> {
    const scope = `${serverKey(this.config)}|${this.config.scope ?? ''}`;
    const release = await limiterFor(scope, this.config.concurrency).acquire(signal);
    try {
      const model = await this.#model(signal);
      const key = serverKey({ baseURL: this.config.baseURL, model });
      let caps: Capabilities = { ...(capabilities.get(key) ?? DEFAULT_CAPABILITIES) };
      const messages: Message[] = [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ];
      const usage: TokenUsage = { input_tokens: 0, output_tokens: 0 };
      let problem = '';
      for (let round = 0; round <= MALFORMED_RETRIES; round++) {
        const reply = await this.#call(model, messages, caps, request, signal);
        caps = reply.caps;
        usage.input_tokens += reply.usage.input_tokens;
        usage.output_tokens += reply.usage.output_tokens;
        // The key never reaches a verdict, whatever the server echoes back.
        const content =
          reply.content === null ? null : withoutKey(reply.content, this.config.apiKey);
        const parsed =
          content === null
            ? { ok: false as const, problem: reply.problem ?? 'the answer has no content' }
            : readAnswer(content, request);
        if (parsed.ok) {
          capabilities.set(key, caps);
          return { value: parsed.value, usage, calls: round + 1 };
        }
        problem = parsed.problem;
        if (content !== null) {
          messages.push(
            { role: 'assistant', content },
            {
              role: 'user',
              content:
                `That answer could not be used: ${problem}. ` +
                'Answer again with only the JSON object the instructions describe, nothing else.',
            },
          );
        }
      }
      throw new AppError(
        'service_error',
        `the upstream model (${describeServer(this.config.baseURL, model)}) gave no usable answer ` +
          `in ${MALFORMED_RETRIES + 1} tries: ${scrub(problem, this.config.apiKey)}`,
      );
    } finally {
      release();
    }
  }

  /** The model ids the server lists (`GET /models`); a failure is an upstream fault like any other. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const page = await this.#openai.models.list({ signal, maxRetries: 0 });
      return page.data.map((m) => m.id);
    } catch (error) {
      throw upstreamFault(error, this.#faultContext(signal));
    }
  }

  /** The configured model, or the server's only one. */
  async #model(signal: AbortSignal | undefined): Promise<string> {
    if (this.config.model !== null) return this.config.model;
    const known = discoveredModels.get(this.config.baseURL);
    if (known !== undefined) return known;
    let ids: string[];
    try {
      const page = await this.#openai.models.list({ signal, maxRetries: 0 });
      ids = page.data.map((m) => m.id);
    } catch (error) {
      const fault = upstreamFault(error, this.#faultContext(signal));
      if (fault.code !== 'service_error') throw fault;
      throw new AppError(
        'service_error',
        `no upstream model is set and the server's model list is not available (${fault.message}): ` +
          'set one (SVC_UPSTREAM_MODEL, or svc settings set upstream.ROLE.model NAME)',
        { cause: fault },
      );
    }
    const only = ids.length === 1 ? ids[0] : undefined;
    if (only === undefined) {
      throw new AppError(
        'service_error',
        `no upstream model is set and ${this.config.baseURL} serves ${ids.length} models` +
          (ids.length ? ` (${ids.slice(0, 5).join(', ')})` : '') +
          ': set one (SVC_UPSTREAM_MODEL, or svc settings set upstream.ROLE.model NAME)',
      );
    }
    discoveredModels.set(this.config.baseURL, only);
    return only;
  }

  /** One answer, after capability fallbacks and at most one transient retry. */
  async #call<T>(
    model: string,
    messages: readonly Message[],
    start: Capabilities,
    request: StructuredRequest<T>,
    signal: AbortSignal | undefined,
  ): Promise<Reply> {
    let caps = start;
    let retriedTransient = false;
    for (;;) {
      if (signal?.aborted) throw new AppError('cancelled', 'the request was cancelled');
      const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
        model,
        messages: [...messages],
        ...(caps.temperature === null ? {} : { temperature: caps.temperature }),
        ...responseFormat(caps.mode, request),
      };
      // Our own deadline as well as the SDK's: the SDK's covers the response headers only.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), this.config.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
      try {
        const raw: unknown = await this.#openai.chat.completions.create(body, {
          signal: combined,
          maxRetries: 0,
          timeout: this.config.timeoutMs,
        });
        const completion = Completion.safeParse(raw);
        if (!completion.success) {
          return {
            content: null,
            usage: NOTHING,
            caps,
            problem: 'the response is not a chat completion',
          };
        }
        const content = completion.data.choices[0]?.message.content ?? null;
        const reported = completion.data.usage;
        return {
          content,
          usage: reported
            ? { input_tokens: reported.prompt_tokens, output_tokens: reported.completion_tokens }
            : countedUsage(messages, content ?? ''),
          caps,
        };
      } catch (caught) {
        const error: unknown = deadline.signal.aborted
          ? new APIConnectionTimeoutError({ message: 'Request timed out.' })
          : caught;
        if (signal?.aborted) throw new AppError('cancelled', 'the request was cancelled');
        if (!(error instanceof APIError)) {
          // a 200 whose body is not JSON (the SDK's JSON.parse threw): junk, asked again
          return {
            content: null,
            usage: NOTHING,
            caps,
            problem: 'the response body is not JSON',
          };
        }
        const fallback = downgrade(error, caps);
        if (fallback) {
          caps = fallback;
          continue;
        }
        if (!retriedTransient && isTransient(error)) {
          retriedTransient = true;
          await sleep(TRANSIENT_RETRY_DELAY_MS, signal);
          continue;
        }
        throw upstreamFault(error, this.#faultContext(signal));
      } finally {
        clearTimeout(timer);
      }
    }
  }
}

function responseFormat<T>(
  mode: OutputMode,
  request: StructuredRequest<T>,
): Pick<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'response_format'> {
  switch (mode) {
    case 'json_schema':
      return {
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: request.name,
            schema: strictJsonSchema(request.schema),
            strict: true,
          },
        },
      };
    case 'json_object':
      return { response_format: { type: 'json_object' } };
    case 'plain':
      return {};
  }
}

/**
 * What to try after a 400/422: the next temperature when the server names it,
 * otherwise the next weaker output mode, then without temperature. A request
 * the server refuses for its size is not retried.
 */
function downgrade(
  error: { status: unknown; message: string },
  caps: Capabilities,
): Capabilities | null {
  if (error.status !== 400 && error.status !== 422) return null;
  const message = error.message;
  if (/context|too long|too many tokens|maximum.*tokens/i.test(message)) return null;
  if (caps.temperature !== null && /temperature/i.test(message)) {
    return { ...caps, temperature: nextTemperature(caps.temperature, message) };
  }
  if (caps.mode === 'json_schema') return { ...caps, mode: 'json_object' };
  if (caps.mode === 'json_object') return { ...caps, mode: 'plain' };
  if (caps.temperature !== null) return { ...caps, temperature: null };
  return null;
}

/**
 * The answer's verdict: the last JSON object in it that passes the schema and
 * the sample check (see `jsonCandidates`), or the problem with the last one.
 */
function readAnswer<T>(
  content: string,
  request: StructuredRequest<T>,
): { ok: true; value: T } | { ok: false; problem: string } {
  const candidates = jsonCandidates(content);
  if (candidates.length === 0) return { ok: false, problem: 'it is not a JSON object' };
  let problem = '';
  for (const candidate of candidates.reverse()) {
    const parsed = request.schema.safeParse(candidate);
    if (!parsed.success) {
      problem ||= `it does not match the schema (${describeZodError(parsed.error)})`;
      continue;
    }
    const wrong = request.check?.(parsed.data) ?? null;
    if (wrong === null) return { ok: true, value: parsed.data };
    problem ||= wrong;
  }
  return { ok: false, problem };
}
