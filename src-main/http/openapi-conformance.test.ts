import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './testing/test-app.ts';

const DATASETS = join(import.meta.dirname, '..', '..', 'resources', 'datasets');

/** The first rows of a shipped dataset as samples of `task_type`, with a field of their own. */
function samples(): unknown[] {
  const gsm = readFileSync(join(DATASETS, 'gsm8k_test_first300.jsonl'), 'utf8')
    .split('\n')
    .slice(0, 3)
    .map((line) => JSON.parse(line) as { question: string; answer: string });
  return [
    ...gsm.map((row, i) => ({ task_type: 'question_answer', ...row, id: `gsm-${i}` })),
    { task_type: 'text', text: 'The the CafÃ© was fine.', source: 'probe' },
  ];
}

/** JSON Pointer escaping of one path segment. */
const escape = (segment: string): string => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Real answers of the server, checked against the schemas /openapi.json gives
 * for them: a client generated from the document must accept what the
 * server sends. (A closed `additionalProperties` on the blocks once made the
 * document refuse every audit, fix and refine answer.)
 */
describe('the OpenAPI document describes the real answers', () => {
  it('accepts the answers of the native routes, /v1, the pricing and an error', async () => {
    const app = createTestApp();
    const doc = (await (await app.request('/openapi.json')).json()) as object;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc, 'openapi');
    const key = app.key();
    const check = async (
      method: 'get' | 'post',
      path: string,
      documented: string,
      body?: unknown,
    ): Promise<number> => {
      const res =
        method === 'post'
          ? await app.post(path, body, key)
          : await app.request(path, { headers: { authorization: `Bearer ${key}` } });
      const status = res.status;
      const pointer = `openapi#/paths/${escape(documented)}/${method}/responses/${status}/content/${escape('application/json')}/schema`;
      const validate = ajv.compile({ $ref: pointer });
      const answer: unknown = await res.json();
      expect(
        validate(answer),
        `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`,
      ).toBe(true);
      return status;
    };
    expect(await check('post', '/audit', '/audit', { data: samples() })).toBe(200);
    expect(await check('post', '/fix', '/fix', { data: samples() })).toBe(200);
    expect(await check('post', '/refine', '/refine', { data: samples() })).toBe(200);
    expect(await check('post', '/audit', '/audit', { data: [] })).toBe(422);
    expect(await check('get', '/pricing', '/pricing')).toBe(200);
    expect(await check('get', '/v1/models', '/v1/models')).toBe(200);
    expect(await check('get', '/v1/models/svc/audit-1', '/v1/models/{id}')).toBe(200);
    const chat = {
      model: 'svc/audit-1',
      messages: [{ role: 'user', content: JSON.stringify({ data: samples() }) }],
    };
    expect(await check('post', '/v1/chat/completions', '/v1/chat/completions', chat)).toBe(200);
    expect(
      await check('post', '/v1/chat/completions', '/v1/chat/completions', {
        model: 'nope',
        messages: [],
      }),
    ).toBeGreaterThanOrEqual(400);
  });
});
