import { describe, expect, it } from 'vitest';
import { ChatCompletionRequest } from './openai.ts';

describe('ChatCompletionRequest', () => {
  it('accepts and keeps the sampling parameters it ignores', () => {
    const body = {
      model: 'svc/audit-1',
      messages: [{ role: 'user', content: '[]' }],
      temperature: 0.7,
      top_p: 0.9,
      max_tokens: 100,
      n: 1,
      tools: [],
      response_format: { type: 'json_object' },
      stream: true,
      stream_options: { include_usage: true },
      user: 'someone',
    };
    expect(ChatCompletionRequest.safeParse(body).success).toBe(true);
  });
  it('accepts content given as text parts', () => {
    const body = {
      model: 'svc/fix-1',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    };
    expect(ChatCompletionRequest.safeParse(body).success).toBe(true);
  });
  it('needs a model and at least one message', () => {
    expect(ChatCompletionRequest.safeParse({ messages: [] }).success).toBe(false);
    expect(ChatCompletionRequest.safeParse({ model: 'svc/fix-1', messages: [] }).success).toBe(
      false,
    );
  });
});
