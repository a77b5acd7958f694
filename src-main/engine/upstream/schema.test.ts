import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { NO_CONVENTIONS } from '../conventions.ts';
import { auditSamples } from '../operations.ts';
import { createRolesBackend } from './backend.ts';
import { UpstreamClient } from './client.ts';
import type { UpstreamConfig } from './config.ts';
import { checkEdits } from './fix.ts';
import { strictJsonSchema } from './json.ts';
import { choiceAnswer, fixPrompt } from './prompts.ts';
import {
  completion,
  startFakeUpstream,
  type FakeUpstream,
  type SeenRequest,
} from './testing/fake-upstream.ts';
import { enumsOf, valuesOf } from './testing/schema-values.ts';

/**
 * The JSON Schema sent for structured output states every constraint the
 * validator checks: a server that obeys it (llama.cpp grammars, OpenAI strict
 * mode) answers with any value the schema allows, and every one is accepted at
 * the first try. A server that answers outside it is asked again, then
 * refused with `service_error` (502, nothing charged).
 */

const servers: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(script: (request: SeenRequest) => unknown): Promise<FakeUpstream> {
  const server = await startFakeUpstream((request) => completion(script(request)));
  servers.push(server);
  return server;
}

const configOf = (server: FakeUpstream): UpstreamConfig => ({
  baseURL: server.url,
  model: 'fake-model',
  apiKey: null,
  timeoutMs: 5000,
  concurrency: 4,
});

const backendOf = (server: FakeUpstream) =>
  createRolesBackend({
    audit: { kind: 'upstream', config: configOf(server) },
    fix: { kind: 'upstream', config: configOf(server) },
  });

const sentSchema = (request: SeenRequest): Record<string, unknown> => {
  const schema = request.body.response_format?.json_schema?.schema;
  if (!schema) throw new Error('no json_schema sent');
  return schema as Record<string, unknown>;
};

/** One value of the schema the request carried, drawn with the seed. */
const drawn = (request: SeenRequest, seed: number): unknown =>
  fc.sample(valuesOf(sentSchema(request)), { numRuns: 1, seed })[0];

const retried = (server: FakeUpstream): number =>
  server.requests.filter((r) => r.last.startsWith('That answer could not be used')).length;

const samples = (choices: number, turns: number): Sample[] => [
  { task_type: 'text', text: 'A short sentence about the weather.' },
  {
    task_type: 'multiple_choice',
    context: 'Which one is right?',
    choices: Array.from({ length: choices }, (_, i) => `option ${i + 1}`),
    answer_index: choices - 1,
    style: 'qa',
  },
  { task_type: 'question_answer', question: 'Who wrote Hamlet?', answer: 'Shakespeare' },
  {
    task_type: 'conversation',
    turns: 'all',
    messages: Array.from({ length: turns }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `turn ${i}`,
    })),
  },
];

describe('the schema sent is the schema checked', () => {
  it('names the letters of the choices as an enum, and the turns as a range', async () => {
    const server = await fake((request) => drawn(request, 1));
    await auditSamples(
      samples(4, 3),
      { votes: 1 },
      {
        backend: backendOf(server),
        conventions: NO_CONVENTIONS,
      },
    );
    const byType = new Map(server.requests.map((r) => [r.taskType, sentSchema(r)]));
    expect(byType.get('multiple_choice')).toMatchObject({
      properties: { answer: { anyOf: [{ enum: ['A', 'B', 'C', 'D'] }, { type: 'null' }] } },
    });
    const turn = JSON.stringify(byType.get('conversation'));
    expect(turn).toContain('"turn":{"anyOf":[{"type":"integer","minimum":0,"maximum":2}');
    expect(turn).toContain('"maxItems":20');
    expect(turn).not.toMatch(/maxLength|9007199254740991/);
  });

  it('accepts, at the first try, any answer the sent schema allows (audit, every task type)', async () => {
    const server = await fake(() => null);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer(),
        async (choices, turns, seed) => {
          server.requests.length = 0;
          server.script = (request) => completion(drawn(request, seed));
          const { blocks } = await auditSamples(
            samples(choices, turns),
            { votes: 1 },
            {
              backend: backendOf(server),
              conventions: NO_CONVENTIONS,
            },
          );
          expect(blocks).toHaveLength(4);
          expect(retried(server)).toBe(0);
          expect(server.requests).toHaveLength(4);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('accepts every letter (and null) for every number of choices', () => {
    for (const count of [2, 4, 5, 26, 28]) {
      const schema = choiceAnswer(count);
      const letters = enumsOf(strictJsonSchema(schema)).find((e) => e.path === '/answer')?.values;
      expect(letters).toHaveLength(count);
      for (const answer of [...(letters ?? []), null]) {
        expect(schema.safeParse({ reasoning: '', answer }).success, String(answer)).toBe(true);
      }
      // read leniently where a server has no structured output
      expect(schema.parse({ reasoning: '', answer: '(b)' }).answer).toBe('B');
    }
  });

  it('accepts any fix the sent schema allows (each field a sample has, values of its kind)', async () => {
    const fixable: Sample[] = [
      { task_type: 'text', text: 'Teh end.' },
      {
        task_type: 'multiple_choice',
        context: 'Pick one',
        choices: ['a', 'b', 'c'],
        answer_index: 0,
        style: 'continuation',
      },
      { task_type: 'question_answer', question: 'Q?', answer: 'A' },
      {
        task_type: 'conversation',
        messages: [
          { role: 'human', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
    ];
    const server = await fake(() => null);
    const client = new UpstreamClient(configOf(server));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fixable), fc.integer(), async (sample, seed) => {
        server.requests.length = 0;
        server.script = (request) => completion(drawn(request, seed));
        const prompt = fixPrompt(sample, [], ['fluency'], NO_CONVENTIONS, []);
        const answer = await client.complete({
          ...prompt,
          check: (value) => checkEdits(sample, value),
        });
        expect(answer.calls).toBe(1);
      }),
      { numRuns: 60 },
    );
  });
});

describe('an answer outside the schema', () => {
  const outside: [string, Sample, (request: SeenRequest) => unknown][] = [
    [
      'a letter past the choices',
      {
        task_type: 'multiple_choice',
        context: 'Which?',
        choices: ['a', 'b', 'c', 'd'],
        answer_index: 0,
      },
      () => ({ reasoning: 'r', answer: 'E' }),
    ],
    [
      'a turn the conversation lacks',
      {
        task_type: 'conversation',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
      },
      () => {
        const issue = { code: 'x', message: 'm', severity: 'error', turn: 2 };
        const check = { passed: false, issues: [issue] };
        return { fluency: check, coherence: check, formatting: check, safety: check };
      },
    ],
  ];

  // service_error is what the service answers 502 with, releasing the hold (nothing charged):
  // src-main/http/upstream.test.ts covers that for every service_error.
  it.each(outside)(
    '%s: asked again, then refused with service_error',
    async (_name, sample, answer) => {
      const server = await fake(answer);
      const error = await auditSamples(
        [sample],
        { votes: 1 },
        {
          backend: backendOf(server),
          conventions: NO_CONVENTIONS,
        },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('service_error');
      expect(server.requests).toHaveLength(3);
    },
  );
});
