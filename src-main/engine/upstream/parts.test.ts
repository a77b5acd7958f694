import { describe, expect, it } from 'vitest';
import { choiceOrder } from './choice-order.ts';
import { retryAfterSeconds, scrub, withoutKey } from './faults.ts';
import { jsonCandidates } from './json.ts';
import { extractJson, strictJsonSchema } from './json.ts';
import { choiceAnswer, labelPosition, TextAuditAnswer } from './prompts.ts';

describe('extractJson', () => {
  it.each([
    ['bare', '{"a":1}'],
    ['fenced', 'Here you go:\n```json\n{"a":1}\n```\nDone.'],
    ['in prose', 'The verdict is {"a":1} as requested.'],
    ['after thinking', '<think>maybe {"a":2}? no</think>\n{"a":1}'],
    ['with braces in strings', 'x {"a":1, "b":"}{"} y'],
  ])('reads JSON %s', (_name, text) => {
    const got = extractJson(text);
    expect(got.ok).toBe(true);
    expect(got.ok && (got.value as { a: number }).a).toBe(1);
  });

  it.each(['', 'no json here', '{"a": ', '[1, 2]'])('refuses %j', (text) => {
    expect(extractJson(text).ok).toBe(false);
  });
});

describe('strictJsonSchema', () => {
  it('requires every property, forbids others, and has no $schema or safe-integer noise', () => {
    const schema = strictJsonSchema(TextAuditAnswer);
    expect(schema).not.toHaveProperty('$schema');
    expect(schema).toMatchObject({
      type: 'object',
      required: ['fluency', 'coherence', 'formatting', 'safety'],
      additionalProperties: false,
    });
    expect(JSON.stringify(schema)).not.toContain('9007199254740991');
    // lengths cannot be sent (the validator clips instead); array sizes are
    expect(JSON.stringify(schema)).not.toMatch(/maxLength/);
    expect(JSON.stringify(schema)).toContain('"maxItems":20');
    expect(strictJsonSchema(choiceAnswer(4))).toMatchObject({ required: ['reasoning', 'answer'] });
  });
});

describe('choiceOrder', () => {
  it('starts as given and puts every choice in every position over `count` votes', () => {
    expect(choiceOrder(4, 0)).toEqual([0, 1, 2, 3]);
    const orders = [0, 1, 2, 3].map((vote) => choiceOrder(4, vote));
    for (let position = 0; position < 4; position++) {
      expect(new Set(orders.map((o) => o[position])).size).toBe(4);
    }
    expect(choiceOrder(4, 4)).toEqual([3, 2, 1, 0]);
    expect(choiceOrder(4, 9)).toEqual(choiceOrder(4, 9));
  });

  it('is always a permutation', () => {
    for (let count = 1; count < 8; count++) {
      for (let vote = 0; vote < 20; vote++) {
        expect([...choiceOrder(count, vote)].sort((a, b) => a - b)).toEqual(
          Array.from({ length: count }, (_, i) => i),
        );
      }
    }
  });
});

describe('labelPosition', () => {
  it.each([
    ['B', 1],
    ['b', 1],
    ['(C)', 2],
    ['D.', 3],
    ['A) Paris', 0],
    ['2', 1],
    ['E', null],
    ['Mars', null],
    ['', null],
  ])('%j -> %j of four', (label, position) => {
    expect(labelPosition(label, 4)).toBe(position);
  });
});

describe('faults: helpers', () => {
  it('reads Retry-After as seconds, an HTTP date or retry-after-ms', () => {
    expect(retryAfterSeconds(new Headers({ 'retry-after': '7' }))).toBe(7);
    expect(retryAfterSeconds(new Headers({ 'retry-after-ms': '1500' }))).toBe(2);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(
      retryAfterSeconds(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:30 GMT' }), now),
    ).toBe(30);
    // nothing usable: a throttled client is still told to wait a second
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'soon' }))).toBe(1);
    expect(retryAfterSeconds(new Headers())).toBe(1);
    expect(retryAfterSeconds(new Headers({ 'retry-after': '0' }))).toBe(1);
    // a date decades away is a server's mistake: at most an hour
    expect(
      retryAfterSeconds(new Headers({ 'retry-after': 'Tue, 01 Jan 2099 00:00:00 GMT' }), now),
    ).toBe(3600);
    expect(retryAfterSeconds(new Headers({ 'retry-after': '2300871569' }))).toBe(3600);
  });

  it('scrubs the key from what a server said and keeps it short', () => {
    const key = 'sk-test-0123456789abcdef';
    expect(scrub(`Incorrect API key provided: ${key}.`, key)).toBe(
      'Incorrect API key provided: [key].',
    );
    expect(scrub('x'.repeat(1000), null).length).toBeLessThan(310);
    expect(withoutKey(`echo: Bearer ${key.toUpperCase()} and ${key}`, key)).toBe(
      'echo: Bearer [key] and [key]',
    );
  });

  it('keeps the last verdict-shaped object of an answer, past stray braces and think tags', () => {
    expect(jsonCandidates('Sure! a stray { here.\n{"a":1}')).toEqual([{ a: 1 }]);
    expect(jsonCandidates('thinking about {\n</think>\n{"a":2}')).toEqual([{ a: 2 }]);
    expect(jsonCandidates('The sample says {"passed":true}. My verdict: {"passed":false}')).toEqual(
      [{ passed: true }, { passed: false }],
    );
    expect(jsonCandidates('no json at all')).toEqual([]);
  });
});
