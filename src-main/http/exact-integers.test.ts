import { describe, expect, it } from 'vitest';
import { createTestApp } from './testing/test-app.ts';

/**
 * An integer past 2^53 in a sample's own fields comes back with the digits it
 * was sent with, natively and through /v1 (a double would turn
 * 1234567890123456789 into 1234567890123456800).
 */

const ID = '1234567890123456789';
const HASH = '18446744073709551615';
const sampleText = `{"task_type":"text","text":"The the CafÃ© was fine.","tweet_id":${ID},"meta":{"hash":${HASH},"n":[-98765432109876543210,2.5]}}`;

describe('integers past 2^53 in samples', () => {
  it('come back exactly from /audit and /refine', async () => {
    const app = createTestApp();
    for (const path of ['/audit', '/refine']) {
      const res = await app.request(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.key()}`, 'content-type': 'application/json' },
        body: `{"data":[${sampleText}]}`,
      });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(`"tweet_id":${ID}`);
      expect(text).toContain(`"meta":{"hash":${HASH},"n":[-98765432109876543210,2.5]}`);
    }
  });

  it('come back exactly from /v1/chat/completions', async () => {
    const app = createTestApp();
    const res = await app.post(
      '/v1/chat/completions',
      { model: 'svc/fix-1', messages: [{ role: 'user', content: `[${sampleText}]` }] },
      app.key(),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    const content = body.choices[0]?.message.content ?? '';
    expect(content).toContain(`"tweet_id":${ID}`);
    expect(content).toContain(`"hash":${HASH}`);
    expect(content).toContain('Café');
  });
});
