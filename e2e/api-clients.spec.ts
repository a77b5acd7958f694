import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { AIMessageChunk } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, streamText } from 'ai';
import OpenAI from 'openai';
import { expect, test } from './fixtures.ts';

/**
 * `/v1/chat/completions` and `/v1/responses` as real clients call them,
 * unchanged: the openai SDK's Responses API, the Vercel AI SDK with both of
 * its providers (`@ai-sdk/openai` defaults to the Responses API,
 * `@ai-sdk/openai-compatible` speaks chat completions) and LangChain, whose
 * streamed usage must be counted once.
 */

const repoRoot = join(import.meta.dirname, '..');

function createKey(dataDir: string): string {
  return execFileSync(
    process.execPath,
    [join(repoRoot, 'bin', 'svc.js'), 'keys', 'create', '--name', 'clients', '--data-dir', dataDir],
    { encoding: 'utf8' },
  ).trim();
}

const QA = JSON.stringify([
  { task_type: 'question_answer', question: 'What is 6 * 7?', answer: '6 * 7 = 42\n#### 41' },
]);

type Result = { task_type: string; audit?: { passed: boolean }; fix?: unknown };
const samplesIn = (text: string) => JSON.parse(text) as Result[];

test.describe('real clients against svc serve', () => {
  test('openai SDK: responses.create, plain and streamed', async ({ svc }) => {
    const client = new OpenAI({ baseURL: `${svc.baseUrl}/v1`, apiKey: createKey(svc.dataDir) });
    const plain = await client.responses.create({
      model: 'svc/audit-1',
      instructions: 'ignored, like a system message',
      input: QA,
    });
    expect(plain.status).toBe('completed');
    expect(samplesIn(plain.output_text)[0]?.audit?.passed).toBe(false);
    expect(plain.usage?.input_tokens).toBeGreaterThan(0);
    expect(plain.usage?.total_tokens).toBe(
      (plain.usage?.input_tokens ?? 0) + (plain.usage?.output_tokens ?? 0),
    );

    const stream = await client.responses.create({
      model: 'svc/refine',
      input: [{ role: 'user', content: [{ type: 'input_text', text: QA }] }],
      stream: true,
    });
    let text = '';
    const types: string[] = [];
    let usage: OpenAI.Responses.ResponseUsage | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') usage = event.response.usage;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(samplesIn(text)[0]?.fix).toBeDefined();
    expect(usage?.output_tokens).toBeGreaterThan(0);
  });

  test('openai SDK: an error on /v1/responses arrives as the SDK error type', async ({ svc }) => {
    const client = new OpenAI({
      baseURL: `${svc.baseUrl}/v1`,
      apiKey: createKey(svc.dataDir),
      maxRetries: 0,
    });
    const error = await client.responses
      .create({ model: 'svc/nope-9', input: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });

  test('AI SDK, default openai provider (Responses API): generateText and streamText', async ({
    svc,
  }) => {
    const openai = createOpenAI({ baseURL: `${svc.baseUrl}/v1`, apiKey: createKey(svc.dataDir) });
    const generated = await generateText({ model: openai('svc/audit-1'), prompt: QA });
    expect(samplesIn(generated.text)[0]?.audit?.passed).toBe(false);
    expect(generated.usage.inputTokens).toBeGreaterThan(0);
    expect(generated.finishReason).toBe('stop');

    const streamed = streamText({ model: openai('svc/fix-1'), prompt: QA });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(samplesIn(text)[0]?.fix).toBeDefined();
    expect((await streamed.usage).outputTokens).toBeGreaterThan(0);
  });

  test('AI SDK, openai-compatible provider (chat completions): generateText and streamText', async ({
    svc,
  }) => {
    const provider = createOpenAICompatible({
      name: 'svc',
      baseURL: `${svc.baseUrl}/v1`,
      apiKey: createKey(svc.dataDir),
      includeUsage: true,
    });
    const generated = await generateText({ model: provider('svc/audit-1'), prompt: QA });
    expect(samplesIn(generated.text)[0]?.audit?.passed).toBe(false);
    const streamed = streamText({ model: provider('svc/audit-1'), prompt: QA });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe(generated.text);
    // the streamed usage is the plain request's, once
    expect((await streamed.usage).inputTokens).toBe(generated.usage.inputTokens);
    expect((await streamed.usage).outputTokens).toBe(generated.usage.outputTokens);
  });

  test('LangChain: streamed chunks concatenated count the usage once, on both APIs', async ({
    svc,
  }) => {
    const apiKey = createKey(svc.dataDir);
    for (const useResponsesApi of [false, true]) {
      const llm = new ChatOpenAI({
        model: 'svc/audit-1',
        apiKey,
        configuration: { baseURL: `${svc.baseUrl}/v1` },
        streamUsage: true,
        useResponsesApi,
        maxRetries: 0,
      });
      const plain = await llm.invoke(QA);
      let full: AIMessageChunk | undefined;
      for await (const chunk of await llm.stream(QA)) full = full ? full.concat(chunk) : chunk;
      const label = useResponsesApi ? 'responses' : 'chat';
      expect(samplesIn(full?.text ?? '')[0]?.audit?.passed, label).toBe(false);
      expect(full?.usage_metadata?.input_tokens, label).toBe(plain.usage_metadata?.input_tokens);
      expect(full?.usage_metadata?.output_tokens, label).toBe(plain.usage_metadata?.output_tokens);
      expect(full?.usage_metadata?.total_tokens, label).toBe(plain.usage_metadata?.total_tokens);
    }
  });
});
