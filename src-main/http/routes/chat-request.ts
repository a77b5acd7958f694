import { z } from 'zod';
import { AppError, validationError } from '../../../src-shared/errors.ts';
import type { ChatModel } from '../../../src-shared/models.ts';
import { CONFIG_BY_OPERATION, Conventions } from '../../../src-shared/schemas/config.ts';
import type { ChatCompletionRequest } from '../../../src-shared/schemas/openai.ts';
import type { ResponseCreateRequest } from '../../../src-shared/schemas/openai-responses.ts';
import { Sample } from '../../../src-shared/schemas/sample.ts';
import type { OperationRequest } from '../../service/runs/contract.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

/**
 * The samples of a chat-completions request: only the last user message is
 * read; its content is an envelope (`{data, config?, conventions?}`), a bare
 * array of samples, or plain text (one `text` sample). Everything is
 * validated here, before any work; errors name the place as a JSON Pointer
 * into the message content.
 */

type Message = ChatCompletionRequest['messages'][number];
type Content = Message['content'];

/** The text parts of a message's content, joined by newlines (images and the like are ignored). */
function contentText(content: Content, textTypes: readonly string[]): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .filter((part) => textTypes.includes(part.type) && typeof part.text === 'string')
      .map((part) => part.text)
      .join('\n');
  }
  return '';
}

function nonEmpty(text: string, param: string): string {
  if (text.trim() === '') {
    throw new AppError('invalid_request', 'the last user message is empty', { param });
  }
  return text;
}

export function lastUserContent(messages: readonly Message[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last)
    throw new AppError('invalid_request', 'the request has no user message', { param: 'messages' });
  return nonEmpty(contentText(last.content, ['text']), 'messages');
}

/**
 * The Responses API's `input`, read as chat reads its messages: a string is
 * the user message; in a list, the last user message counts (items of other
 * kinds, such as tool outputs, are skipped), its `input_text` parts joined.
 */
export function lastUserInput(input: ResponseCreateRequest['input']): string {
  if (typeof input === 'string') return nonEmpty(input, 'input');
  const last = [...input]
    .reverse()
    .find((item) => item.role === 'user' && (item.type === undefined || item.type === 'message'));
  if (!last)
    throw new AppError('invalid_request', 'the input has no user message', { param: 'input' });
  return nonEmpty(contentText(last.content, ['input_text', 'text']), 'input');
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { ok: false };
  try {
    return { ok: true, value: parseJsonExact(trimmed) };
  } catch {
    return { ok: false };
  }
}

const Envelope = z.strictObject({
  data: z.array(z.unknown()).min(1, 'data must not be empty'),
  config: z.unknown().optional(),
  conventions: Conventions.optional(),
});

/**
 * The operation a chat message asks for, and where its samples are in the
 * message (`/data` in an envelope, the root for a bare array or plain text),
 * so later errors point at the right place.
 */
export function chatOperation(
  model: ChatModel,
  content: string,
): { request: OperationRequest; samplesPointer: string } {
  const parsed = parseJson(content);
  let rawSamples: unknown[];
  let rawConfig: unknown = {};
  let conventions: string | undefined;
  let pointer = '';
  // Plain text is one sample at the root of the message, as if it were an array of one.
  if (!parsed.ok) {
    rawSamples = [{ task_type: 'text', text: content }];
  } else if (Array.isArray(parsed.value)) {
    if (parsed.value.length === 0)
      throw new AppError('invalid_request', 'the array of samples is empty');
    rawSamples = parsed.value;
  } else {
    const envelope = Envelope.safeParse(parsed.value);
    if (!envelope.success) throw validationError(envelope.error, 'envelope');
    rawSamples = envelope.data.data;
    rawConfig = envelope.data.config ?? {};
    conventions = envelope.data.conventions;
    pointer = '/data';
  }
  const samples = rawSamples.map((raw, i) => {
    const sample = Sample.safeParse(raw);
    if (!sample.success) throw validationError(sample.error, `sample ${i}`, `${pointer}/${i}`);
    return sample.data;
  });
  const config = CONFIG_BY_OPERATION[model.operation].safeParse(rawConfig);
  if (!config.success) throw validationError(config.error, `config for ${model.id}`, '/config');
  const request = {
    operation: model.operation,
    samples,
    config: config.data,
    conventions,
  } as OperationRequest;
  return { request, samplesPointer: pointer };
}
