import jsonPatch from 'fast-json-patch';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import type { Change } from '../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import type { EngineBackend } from '../backend.ts';
import { NO_CONVENTIONS, parseConventions } from '../conventions.ts';
import { auditSamples, fixSamples, refineSamples, type RunOptions } from '../operations.ts';
import { countTokens } from '../tokens.ts';
import { createRolesBackend } from './backend.ts';
import { knownCapabilities } from './client.ts';
import type { UpstreamConfig } from './config.ts';
import {
  completion,
  failure,
  letterOf,
  shownChoices,
  startFakeUpstream,
  type FakeUpstream,
  type Script,
  type SeenRequest,
  type Usage,
} from './testing/fake-upstream.ts';

const servers: FakeUpstream[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(script: Script, models?: string[]): Promise<FakeUpstream> {
  const server = await startFakeUpstream(script, models);
  servers.push(server);
  return server;
}

const configOf = (server: FakeUpstream, over: Partial<UpstreamConfig> = {}): UpstreamConfig => ({
  baseURL: server.url,
  model: 'fake-model',
  apiKey: null,
  timeoutMs: 5000,
  concurrency: 1,
  ...over,
});

const upstream = (server: FakeUpstream, over: Partial<UpstreamConfig> = {}): EngineBackend =>
  createRolesBackend({
    audit: { kind: 'upstream', config: configOf(server, over) },
    fix: { kind: 'upstream', config: configOf(server, over) },
  });

const run = (backend: EngineBackend, conventions?: string): RunOptions => ({
  backend,
  conventions: conventions === undefined ? NO_CONVENTIONS : parseConventions(conventions),
});

/** Distinct token counts per request, so sums can be checked. */
const usageOf = (index: number): Usage => ({
  prompt_tokens: 100 + index,
  completion_tokens: 10 + index,
});

const clean = { passed: true, issues: [] };
const dims = (over: Record<string, unknown> = {}) => ({
  fluency: clean,
  coherence: clean,
  formatting: clean,
  safety: clean,
  ...over,
});
const failing = (code: string, message: string, turn?: number) => ({
  passed: false,
  issues: [{ code, message, severity: 'error', ...(turn === undefined ? {} : { turn }) }],
});

/** The sample JSON of a prompt (`Sample:\n{...}` up to the problems list). */
function sampleIn(request: SeenRequest): Record<string, unknown> {
  const body = request.user
    .replace(/^(Sample|Conversation):\n/, '')
    .split(/\n\n(?:Problems:|Turns to judge:)/)[0];
  return JSON.parse(body ?? '{}') as Record<string, unknown>;
}

/** Applies `changes` as JSON Patch to the input: it must give the output. */
function patched(input: Sample, changes: readonly Change[]): unknown {
  const ops = changes.map(({ op, path, value }) =>
    op === 'remove' ? { op, path } : { op, path, value },
  ) as jsonPatch.Operation[];
  return jsonPatch.applyPatch(structuredClone(input), ops, true, false).newDocument;
}

const refineConfig = { audit: { votes: 1 }, fix: { max_attempts: 3 }, reaudit: { votes: 1 } };

describe('upstream audit, fix and refine, per task type', () => {
  it("text: the builtin repairs first, the model fixes the rest; usage is the server's", async () => {
    const server = await fake((request, index) => {
      if (request.operation === 'audit') {
        const text = String(sampleIn(request).text);
        return completion(
          text.includes('teh')
            ? dims({ fluency: failing('spelling', '"teh" is misspelt') })
            : dims(),
          usageOf(index),
        );
      }
      const text = String(sampleIn(request).text);
      return completion(
        { edits: [{ path: '/text', value: text.replace('teh', 'the'), reason: 'fluency' }] },
        usageOf(index),
      );
    });
    const input: Sample = { task_type: 'text', text: 'Itâ€™s teh best day of the year.' };
    const { outcomes, usage } = await refineSamples([input], refineConfig, run(upstream(server)));
    const [outcome] = outcomes;
    expect(outcome?.before.checks.fluency).toMatchObject({
      passed: false,
      issues: [
        { code: 'mojibake' },
        { code: 'upstream_spelling', path: '/text', severity: 'error' },
      ],
    });
    expect(outcome?.output).toEqual({ task_type: 'text', text: 'It’s the best day of the year.' });
    expect(outcome?.fix?.changes.map((c) => c.reason)).toEqual(['fluency', 'fluency']);
    expect(patched(input, outcome?.fix?.changes ?? [])).toEqual(outcome?.output);
    expect(outcome?.reaudit?.passed).toBe(true);
    // the model saw the sample with the builtin repair already made, and only the rest to do
    const fixRequest = server.requests.find((r) => r.operation === 'fix');
    expect(sampleIn(fixRequest!)).toEqual({ text: 'It’s teh best day of the year.' });
    expect(fixRequest?.user).toContain('upstream_spelling');
    expect(fixRequest?.user).not.toContain('mojibake');
    // usage: exactly what the server reported, per engine model, every pass included
    const sum = (operation: string) =>
      server.requests.reduce(
        (acc, r, i) =>
          r.operation === operation
            ? {
                input_tokens: acc.input_tokens + usageOf(i).prompt_tokens,
                output_tokens: acc.output_tokens + usageOf(i).completion_tokens,
                passes: acc.passes + 1,
              }
            : acc,
        { input_tokens: 0, output_tokens: 0, passes: 0 },
      );
    expect(server.requests.map((r) => r.operation)).toEqual(['audit', 'fix', 'audit', 'audit']);
    expect(usage.byModel()).toEqual({ 'svc-audit-1': sum('audit'), 'svc-fix-1': sum('fix') });
  });

  it('text: asks at temperature 0 with a strict json_schema response_format', async () => {
    const server = await fake(() => completion(dims()));
    await auditSamples([{ task_type: 'text', text: 'Fine.' }], { votes: 1 }, run(upstream(server)));
    const body = server.requests[0]?.body;
    expect(body?.temperature).toBe(0);
    expect(body?.model).toBe('fake-model');
    expect(body?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'svc_audit_text', strict: true, schema: { type: 'object' } },
    });
    expect(server.requests[0]?.system).toMatch(/^svc task: audit text\n/);
  });

  it('multiple_choice: the model picks the answer, a wrong label is found and repaired', async () => {
    const server = await fake((request, index) =>
      request.operation === 'audit'
        ? completion(
            { reasoning: 'Mars looks red.', answer: letterOf(request.user, 'Mars') },
            usageOf(index),
          )
        : completion(
            { edits: [{ path: '/answer_index', value: 1, reason: 'label_correct' }] },
            usageOf(index),
          ),
    );
    const input: Sample = {
      task_type: 'multiple_choice',
      context: 'Which planet is known as the Red Planet?',
      choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'],
      answer_index: 0,
      style: 'qa',
    };
    const { outcomes } = await refineSamples([input], refineConfig, run(upstream(server)));
    const [outcome] = outcomes;
    expect(outcome?.before.label_correct).toBe(false);
    expect(outcome?.before.checks.label_correct?.issues[0]).toMatchObject({
      code: 'upstream_label_incorrect',
      path: '/answer_index',
    });
    expect(outcome?.before.checks.label_correct?.issues[0]?.message).toContain('"Mars"');
    expect(outcome?.fix?.changes).toEqual([
      { op: 'replace', path: '/answer_index', value: 1, old: 0, reason: 'label_correct' },
    ]);
    expect(outcome?.reaudit?.label_correct).toBe(true);
    // the label itself is never shown to the judging model
    const audits = server.requests.filter((r) => r.operation === 'audit');
    expect(audits.every((r) => !r.user.includes('answer_index'))).toBe(true);
  });

  it('question_answer: the model judges the answer and rewrites a wrong one', async () => {
    const server = await fake((request) => {
      if (request.operation === 'audit') {
        const right = sampleIn(request).answer === 'Canberra';
        return completion({
          reasoning: 'The capital of Australia is Canberra.',
          answer_correct: right,
          correct_answer: right ? null : 'Canberra',
        });
      }
      return completion({
        edits: [{ path: '/answer', value: 'Canberra', reason: 'answer_correct' }],
      });
    });
    const input: Sample = {
      task_type: 'question_answer',
      question: 'What is the capital of Australia?',
      answer: 'Sydney',
    };
    const { outcomes } = await refineSamples([input], refineConfig, run(upstream(server)));
    const [outcome] = outcomes;
    expect(outcome?.before.answer_correct).toBe(false);
    expect(outcome?.before.checks.answer_correct?.issues[0]?.message).toContain('Canberra');
    expect(outcome?.output).toMatchObject({ answer: 'Canberra' });
    expect(outcome?.fix?.changes).toEqual([
      {
        op: 'replace',
        path: '/answer',
        value: 'Canberra',
        old: 'Sydney',
        reason: 'answer_correct',
      },
    ]);
    expect(outcome?.reaudit?.answer_correct).toBe(true);
  });

  it('question_answer: a computed answer stands against the model', async () => {
    const server = await fake(() =>
      completion({ reasoning: 'No.', answer_correct: false, correct_answer: '85' }),
    );
    const { blocks } = await auditSamples(
      [{ task_type: 'question_answer', question: 'What is 12 * 7?', answer: '84' }],
      { votes: 1 },
      run(upstream(server)),
    );
    expect(blocks[0]?.answer_correct).toBe(true);
    expect(blocks[0]?.checks.answer_correct?.issues).toEqual([]);
  });

  it('conversation: issues land on their turn, the model rewrites that turn', async () => {
    const server = await fake((request) => {
      if (request.operation === 'audit') {
        const turns = sampleIn(request) as unknown as { content: string }[];
        const off = turns.at(-1)?.content.includes('Bananas') ?? false;
        return completion(
          off
            ? dims({ coherence: failing('off_topic', 'the answer ignores the question', 1) })
            : dims(),
        );
      }
      return completion({
        edits: [
          {
            path: '/messages/1/content',
            value: 'Put the egg in boiling water for about nine minutes.',
            reason: 'coherence',
          },
        ],
      });
    });
    const input: Sample = {
      task_type: 'conversation',
      messages: [
        { role: 'user', content: 'How do I boil an egg?' },
        { role: 'assistant', content: 'Bananas are yellow.' },
      ],
    };
    const { outcomes } = await refineSamples([input], refineConfig, run(upstream(server)));
    const [outcome] = outcomes;
    expect(outcome?.before.checks.coherence?.issues).toEqual([
      expect.objectContaining({ code: 'upstream_off_topic', path: '/messages/1/content' }),
    ]);
    expect(outcome?.fix?.changes).toEqual([
      {
        op: 'replace',
        path: '/messages/1/content',
        value: 'Put the egg in boiling water for about nine minutes.',
        old: 'Bananas are yellow.',
        reason: 'coherence',
      },
    ]);
    expect(outcome?.reaudit?.passed).toBe(true);
    expect(server.requests[0]?.system).toContain('turns numbered 1');
  });

  it('fix alone: a text the model flags is rewritten under never-worse', async () => {
    const server = await fake((request) =>
      request.operation === 'audit'
        ? completion(
            String(sampleIn(request).text).includes('Teh')
              ? dims({ fluency: failing('spelling', 'misspelt') })
              : dims(),
          )
        : completion({ edits: [{ path: '/text', value: 'The cat sat.', reason: 'fluency' }] }),
    );
    const { outcomes, usage } = await fixSamples(
      [{ task_type: 'text', text: 'Teh cat sat.' }],
      { max_attempts: 3 },
      run(upstream(server)),
    );
    expect(outcomes[0]?.fix).toEqual({
      changes: [
        {
          op: 'replace',
          path: '/text',
          value: 'The cat sat.',
          old: 'Teh cat sat.',
          reason: 'fluency',
        },
      ],
      flagged: false,
      attempts: 1,
    });
    expect(usage.byModel()['svc-fix-1']?.passes).toBe(1);
  });
});

describe('fix attempts through the upstream', () => {
  it("keeps the builtin repairs when the model's edit is rejected", async () => {
    const server = await fake((request) => {
      if (request.operation === 'fix') {
        return completion({
          edits: [{ path: '/text', value: 'Garbage garbage.', reason: 'fluency' }],
        });
      }
      const text = String(sampleIn(request).text);
      return completion(
        dims({
          ...(text.includes('teh') ? { fluency: failing('spelling', 'misspelt') } : {}),
          ...(text.includes('Garbage') ? { coherence: failing('nonsense', 'nonsense') } : {}),
        }),
      );
    });
    const input: Sample = { task_type: 'text', text: 'Itâ€™s teh best day of the year.' };
    const { outcomes } = await fixSamples([input], { max_attempts: 3 }, run(upstream(server)));
    expect(outcomes[0]?.output).toEqual({
      task_type: 'text',
      text: 'It’s teh best day of the year.',
    });
    expect(outcomes[0]?.fix).toMatchObject({ flagged: true, attempts: 2 });
    expect(outcomes[0]?.fix?.changes).toHaveLength(1);
  });

  it('tells the model its earlier proposal was rejected', async () => {
    let fixes = 0;
    const server = await fake((request) => {
      if (request.operation === 'fix') {
        fixes++;
        return completion({
          edits: [
            {
              path: '/text',
              value: fixes === 1 ? 'Garbage garbage.' : 'The cat sat.',
              reason: 'fluency',
            },
          ],
        });
      }
      const text = String(sampleIn(request).text);
      return completion(
        dims({
          ...(text.includes('Teh') ? { fluency: failing('spelling', 'misspelt') } : {}),
          ...(text.includes('Garbage') ? { coherence: failing('nonsense', 'nonsense') } : {}),
        }),
      );
    });
    const { outcomes } = await fixSamples(
      [{ task_type: 'text', text: 'Teh cat sat.' }],
      { max_attempts: 3 },
      run(upstream(server)),
    );
    expect(outcomes[0]?.output).toMatchObject({ text: 'The cat sat.' });
    expect(outcomes[0]?.fix?.attempts).toBe(2);
    const second = server.requests.filter((r) => r.operation === 'fix')[1];
    expect(second?.system).toContain('Earlier proposals for this sample were rejected');
    expect(second?.system).toContain('Garbage garbage.');
  });

  it('leaves what the builtin engine can repair alone to the builtin engine', async () => {
    const server = await fake(() => completion(dims()));
    const { outcomes } = await fixSamples(
      [{ task_type: 'text', text: 'Itâ€™s a fine day.' }],
      { max_attempts: 3 },
      run(upstream(server)),
    );
    expect(outcomes[0]?.output).toMatchObject({ text: 'It’s a fine day.' });
    expect(server.requests.map((r) => r.operation)).toEqual(['audit', 'audit']);
  });
});

describe('votes through the upstream', () => {
  const mc: Sample = {
    task_type: 'multiple_choice',
    context: 'Which planet is known as the Red Planet?',
    choices: ['Venus', 'Mars', 'Jupiter', 'Saturn'],
    answer_index: 1,
  };

  it('shows the choices in another order per vote and maps the answer back', async () => {
    const server = await fake((request) =>
      completion({ reasoning: 'Red.', answer: letterOf(request.user, 'Mars') }),
    );
    const { blocks, usage } = await auditSamples([mc], { votes: 3 }, run(upstream(server)));
    const orders = server.requests.map((r) => shownChoices(r.user).join('|'));
    expect(orders).toHaveLength(3);
    expect(new Set(orders).size).toBe(3);
    expect(orders[0]).toBe('Venus|Mars|Jupiter|Saturn');
    expect(blocks[0]?.label_correct).toBe(true);
    expect(blocks[0]?.checks.label_correct).toMatchObject({ passed: true, agreement: 1 });
    expect(usage.byModel()['svc-audit-1']?.passes).toBe(3);
  });

  it.each([3, 4, 8])(
    'turns a model that always says "A" into an undecided label over %i votes, not a confident verdict',
    async (votes) => {
      const server = await fake(() => completion({ reasoning: 'A, surely.', answer: 'A' }));
      const { blocks } = await auditSamples([mc], { votes }, run(upstream(server)));
      const verdict = blocks[0]?.checks.label_correct;
      expect(verdict).toMatchObject({ passed: null, score: 0.5 });
      expect(verdict?.agreement).toBeLessThanOrEqual(0.5);
      expect(verdict?.issues[0]?.code).toBe('upstream_votes_disagree');
      expect(blocks[0]?.label_correct).toBeNull();
    },
  );

  it('keeps a wrong label wrong when the model picks the same other choice in every order', async () => {
    const server = await fake((request) =>
      completion({ reasoning: 'Gas giant.', answer: letterOf(request.user, 'Jupiter') }),
    );
    const { blocks } = await auditSamples([mc], { votes: 4 }, run(upstream(server)));
    expect(blocks[0]?.checks.label_correct).toMatchObject({ passed: false, agreement: 1 });
    expect(blocks[0]?.label_correct).toBe(false);
  });
});

describe("structured output and the server's capabilities", () => {
  it('falls back to json_object when json_schema is refused, and remembers it', async () => {
    const server = await fake((request) =>
      request.body.response_format?.type === 'json_schema'
        ? failure(400, "response_format type 'json_schema' is not supported")
        : completion(dims()),
    );
    const texts: Sample[] = ['One.', 'Two.'].map((text) => ({ task_type: 'text', text }));
    const { blocks } = await auditSamples(texts, { votes: 1 }, run(upstream(server)));
    expect(blocks.every((b) => b.passed)).toBe(true);
    expect(server.requests.map((r) => r.body.response_format?.type)).toEqual([
      'json_schema',
      'json_object',
      'json_object',
    ]);
    expect(knownCapabilities({ baseURL: server.url, model: 'fake-model' })).toEqual({
      mode: 'json_object',
      temperature: 0,
    });
  });

  it('parses plain answers in prose and fences when no response_format is accepted', async () => {
    const server = await fake((request) =>
      request.body.response_format
        ? failure(400, 'response_format is not supported by this server')
        : completion(`Sure! Here it is:\n\`\`\`json\n${JSON.stringify(dims())}\n\`\`\``),
    );
    const { blocks } = await auditSamples(
      [{ task_type: 'text', text: 'Fine.' }],
      { votes: 1 },
      run(upstream(server)),
    );
    expect(blocks[0]?.passed).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]?.body).not.toHaveProperty('response_format');
    expect(server.requests[2]?.system).toContain('"additionalProperties":false');
  });

  it('omits temperature when the server accepts only its default', async () => {
    const server = await fake((request) =>
      'temperature' in request.body
        ? failure(
            400,
            "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
          )
        : completion(dims()),
    );
    await auditSamples([{ task_type: 'text', text: 'Fine.' }], { votes: 1 }, run(upstream(server)));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body).not.toHaveProperty('temperature');
    expect(server.requests[1]?.body.response_format?.type).toBe('json_schema');
  });

  it('asks with the lowest temperature a server takes when it refuses 0', async () => {
    const server = await fake((request) =>
      request.body.temperature === 0
        ? failure(422, 'Input validation error: `temperature` must be strictly positive')
        : completion(dims()),
    );
    await auditSamples([{ task_type: 'text', text: 'Fine.' }], { votes: 1 }, run(upstream(server)));
    await auditSamples(
      [{ task_type: 'text', text: 'Also fine.' }],
      { votes: 1 },
      run(upstream(server)),
    );
    expect(server.requests.map((r) => r.body.temperature)).toEqual([0, 0.01, 0.01]);
  });

  it('asks again after malformed answers, naming the problem, and bills every call', async () => {
    const replies = [
      completion('I think the text is fine.', usageOf(0)),
      completion({ fluency: clean }, usageOf(1)),
      completion(dims(), usageOf(2)),
    ];
    const server = await fake((_request, index) => replies[index] ?? failure(500, 'too many'));
    const { blocks, usage } = await auditSamples(
      [{ task_type: 'text', text: 'Fine.' }],
      { votes: 1 },
      run(upstream(server)),
    );
    expect(blocks[0]?.passed).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]?.last).toMatch(/could not be used: it is not a JSON object/);
    expect(server.requests[2]?.last).toMatch(/does not match the schema \(coherence/);
    expect(usage.byModel()['svc-audit-1']).toEqual({
      input_tokens: 100 + 101 + 102,
      output_tokens: 10 + 11 + 12,
      passes: 1,
    });
  });

  it('asks again when an answer does not fit the sample (a letter out of range, a foreign path)', async () => {
    const mcServer = await fake((_request, index) =>
      completion({ reasoning: '-', answer: index === 0 ? 'F' : 'B' }),
    );
    const { blocks } = await auditSamples(
      [{ task_type: 'multiple_choice', context: 'Pick B?', choices: ['a', 'b'], answer_index: 1 }],
      { votes: 1 },
      run(upstream(mcServer)),
    );
    expect(blocks[0]?.label_correct).toBe(true);
    // the schema sent names the letters, and the validator (the same schema) names them back
    expect(mcServer.requests[1]?.last).toContain('answer: Invalid option: expected one of "A"|"B"');

    let fixes = 0;
    const fixServer = await fake((request) => {
      if (request.operation === 'audit') {
        return completion(
          String(sampleIn(request).text).includes('Teh')
            ? dims({ fluency: failing('spelling', 'misspelt') })
            : dims(),
        );
      }
      fixes++;
      return completion({
        edits: [{ path: fixes === 1 ? '/id' : '/text', value: 'The end.', reason: 'fluency' }],
      });
    });
    const { outcomes } = await fixSamples(
      [{ task_type: 'text', text: 'Teh end.', id: 7 }],
      { max_attempts: 1 },
      run(upstream(fixServer)),
    );
    expect(outcomes[0]?.output).toEqual({ task_type: 'text', text: 'The end.', id: 7 });
    expect(fixServer.requests.at(-2)?.last).toContain(
      'edits.0.path: Invalid input: expected "/text"',
    );
  });

  it('counts with the project tokenizer when the server reports no usage', async () => {
    const server = await fake(() => completion(dims(), null));
    const { usage } = await auditSamples(
      [{ task_type: 'text', text: 'Fine.' }],
      { votes: 1 },
      run(upstream(server)),
    );
    const [request] = server.requests;
    expect(usage.byModel()['svc-audit-1']).toEqual({
      input_tokens: countTokens(request!.system) + countTokens(request!.user),
      output_tokens: countTokens(JSON.stringify(dims())),
      passes: 1,
    });
  });

  it("uses the server's only model when none is set", async () => {
    const server = await fake(() => completion(dims()), ['only-model']);
    await auditSamples(
      [{ task_type: 'text', text: 'Fine.' }],
      { votes: 1 },
      run(upstream(server, { model: null })),
    );
    expect(server.requests[0]?.body.model).toBe('only-model');
  });

  it('says which models there are when none is set and the server has several', async () => {
    const server = await fake(() => completion(dims()), ['llama3.1', 'qwen2.5']);
    const error = await auditSamples(
      [{ task_type: 'text', text: 'Fine.' }],
      { votes: 1 },
      run(upstream(server, { model: null })),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('service_error');
    expect((error as AppError).message).toMatch(/serves 2 models \(llama3\.1, qwen2\.5\)/);
  });

  it('sends the key as a bearer token, and no Authorization at all without one', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-the-environment-must-not-leak');
    const server = await fake(() => completion(dims()));
    const key = 'sk-test-0123456789abcdef';
    await auditSamples(
      [{ task_type: 'text', text: 'Fine.' }],
      { votes: 1 },
      run(upstream(server, { apiKey: key })),
    );
    await auditSamples([{ task_type: 'text', text: 'Fine.' }], { votes: 1 }, run(upstream(server)));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(server.requests[1]?.headers).not.toHaveProperty('authorization');
  });

  it('passes the conventions verbatim', async () => {
    const server = await fake(() => completion(dims()));
    await auditSamples(
      [{ task_type: 'text', text: 'Mail me at jane.roe@gmail.com' }],
      { votes: 1 },
      run(upstream(server), 'E-mail addresses are fine.'),
    );
    expect(server.requests[0]?.system).toContain('<<<\nE-mail addresses are fine.\n>>>');
  });
});

describe('concurrency', () => {
  it('keeps each role to its own allowance when both use one server and model', async () => {
    // Every audit flags the text, so each sample gets fix requests too; each answer takes 150 ms.
    const arrivals: { operation: string; at: number }[] = [];
    const server = await fake((request) => {
      arrivals.push({ operation: request.operation, at: performance.now() });
      return {
        ...completion(
          request.operation === 'fix'
            ? { edits: [] }
            : dims({ coherence: failing('vague', 'says little') }),
        ),
        delayMs: 150,
      };
    });
    const backend = createRolesBackend({
      audit: { kind: 'upstream', config: configOf(server, { concurrency: 1 }) },
      fix: { kind: 'upstream', config: configOf(server, { concurrency: 6 }) },
    });
    const samples: Sample[] = Array.from({ length: 6 }, (_, i) => ({
      task_type: 'text',
      text: `Sample number ${i} says very little.`,
    }));
    await refineSamples(
      samples,
      { audit: { votes: 1 }, fix: { max_attempts: 1 }, reaudit: { votes: 1 } },
      run(backend),
    );
    const peak = (operation: string) =>
      Math.max(
        0,
        ...arrivals
          .filter((a) => a.operation === operation)
          .map((a, _, all) => all.filter((b) => b.at <= a.at && a.at < b.at + 140).length),
      );
    expect(arrivals.some((a) => a.operation === 'audit')).toBe(true);
    expect(peak('audit')).toBe(1);
  });

  it('runs up to `concurrency` samples at once and keeps their order', async () => {
    const server = await fake((request) => ({
      ...completion(
        String(sampleIn(request).text).endsWith('odd')
          ? dims({ coherence: failing('odd', 'odd one') })
          : dims(),
      ),
      delayMs: 100,
    }));
    const samples: Sample[] = Array.from({ length: 7 }, (_, i) => ({
      task_type: 'text',
      text: `Sample ${i} is ${i % 2 ? 'odd' : 'even'}`,
    }));
    const backend = upstream(server, { concurrency: 3 });
    expect(backend.concurrency).toBe(3);
    const progress: number[] = [];
    const { blocks } = await auditSamples(
      samples,
      { votes: 1 },
      {
        ...run(backend),
        onProgress: (done) => progress.push(done),
      },
    );
    expect(server.peak).toBe(3);
    expect(blocks.map((b) => b.checks.coherence?.passed)).toEqual(
      samples.map((_, i) => i % 2 === 0),
    );
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('stops the others when one sample fails', async () => {
    const server = await fake((request) =>
      String(sampleIn(request).text) === 'boom'
        ? failure(500, 'exploded')
        : { ...completion(dims()), delayMs: 300 },
    );
    const samples: Sample[] = ['a', 'boom', 'b', 'c', 'd', 'e'].map((text) => ({
      task_type: 'text',
      text,
    }));
    const error = await auditSamples(
      samples,
      { votes: 1 },
      run(upstream(server, { concurrency: 2 })),
    )
      .then(() => null)
      .catch((e: unknown) => e);
    expect((error as AppError).code).toBe('service_error');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests.length).toBe(2);
    expect(server.abandoned).toBe(1);
  });
});
