import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import OpenAI from 'openai';
import { expect, test } from './fixtures.ts';

/**
 * The OpenAI-compatible endpoint as external tools use it: the official
 * `openai` SDK pointed at `svc serve` with an `svc_` key.
 */

const repoRoot = join(import.meta.dirname, '..');

function createKey(dataDir: string): string {
  return execFileSync(
    process.execPath,
    [join(repoRoot, 'bin', 'svc.js'), 'keys', 'create', '--name', 'e2e', '--data-dir', dataDir],
    {
      encoding: 'utf8',
    },
  ).trim();
}

test.describe('openai SDK against svc serve', () => {
  test('lists models and retrieves a card by alias', async ({ svc }) => {
    const client = new OpenAI({ baseURL: `${svc.baseUrl}/v1`, apiKey: createKey(svc.dataDir) });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['svc/audit-1', 'svc/fix-1', 'svc/refine-1']);
    const card = await client.models.retrieve('svc/audit');
    expect(card.id).toBe('svc/audit-1');
  });

  test('audits, fixes and refines, plain and streamed', async ({ svc }) => {
    const client = new OpenAI({ baseURL: `${svc.baseUrl}/v1`, apiKey: createKey(svc.dataDir) });
    const plain = await client.chat.completions.create({
      model: 'svc/fix-1',
      messages: [{ role: 'user', content: 'Caf\u00c3\u00a9 <b>menu</b>  today' }],
      temperature: 0.9,
    });
    const fixed = JSON.parse(plain.choices[0]!.message.content!) as {
      text: string;
      fix: { changes: unknown[] };
    }[];
    expect(fixed[0]?.text).toBe('Café menu today');
    expect(plain.usage?.total_tokens).toBeGreaterThan(0);
    expect(plain.choices[0]?.finish_reason).toBe('stop');

    const stream = await client.chat.completions.create({
      model: 'svc/refine-1',
      stream: true,
      messages: [
        {
          role: 'user',
          content: JSON.stringify([
            { task_type: 'question_answer', question: 'What is 6 * 7?', answer: '#### 41' },
          ]),
        },
      ],
    });
    let content = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    const refined = JSON.parse(content) as { audit: { answer_correct: boolean } }[];
    expect(refined[0]?.audit.answer_correct).toBe(false);
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
  });

  test('a batch holding a duplicate: the copy fails `duplicates`, naming the first by index', async ({
    svc,
  }) => {
    const client = new OpenAI({ baseURL: `${svc.baseUrl}/v1`, apiKey: createKey(svc.dataDir) });
    const question = 'Which planet is known as the Red Planet?';
    const batch = [
      {
        task_type: 'multiple_choice',
        context: question,
        choices: ['Venus', 'Mars'],
        answer_index: 1,
        style: 'qa',
      },
      { task_type: 'text', text: 'A sentence of its own, about something else.' },
      // the same item, choices reordered and the stem shouted: an exact duplicate after normalising
      {
        task_type: 'multiple_choice',
        context: question.toUpperCase(),
        choices: ['Mars', 'Venus'],
        answer_index: 0,
        style: 'qa',
      },
    ];
    const reply = await client.chat.completions.create({
      model: 'svc/audit-1',
      messages: [{ role: 'user', content: JSON.stringify({ data: batch }) }],
    });
    type Checked = {
      audit: {
        passed: boolean;
        checks: Record<
          string,
          { passed: boolean | null; issues: { code: string; ref?: number }[] }
        >;
      };
    };
    const audited = JSON.parse(reply.choices[0]!.message.content!) as Checked[];
    expect(audited[0]?.audit.checks.duplicates?.passed).toBe(true);
    expect(audited[2]?.audit.passed).toBe(false);
    expect(audited[2]?.audit.checks.duplicates?.issues).toEqual([
      expect.objectContaining({ code: 'exact_duplicate', ref: 0 }),
    ]);
  });

  test('every error class arrives as the SDK error type', async ({ svc }) => {
    const good = new OpenAI({
      baseURL: `${svc.baseUrl}/v1`,
      apiKey: createKey(svc.dataDir),
      maxRetries: 0,
    });
    const bad = new OpenAI({ baseURL: `${svc.baseUrl}/v1`, apiKey: 'svc_nope', maxRetries: 0 });
    const ask = (client: OpenAI, model: string, content: string) =>
      client.chat.completions.create({ model, messages: [{ role: 'user', content }] });
    await expect(ask(bad, 'svc/audit-1', 'x')).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(ask(good, 'svc/nope-1', 'x')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      ask(
        good,
        'svc/audit-1',
        JSON.stringify({ data: [{ task_type: 'text', text: 'x' }], config: { votes: 99 } }),
      ),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const tooLarge = await ask(good, 'svc/audit-1', 'word '.repeat(40_000)).catch(
      (e: unknown) => e,
    );
    expect(tooLarge).toBeInstanceOf(OpenAI.APIError);
    expect((tooLarge as InstanceType<typeof OpenAI.APIError>).status).toBe(413);
    expect((tooLarge as InstanceType<typeof OpenAI.APIError>).code).toBe('context_length_exceeded');
  });
});
