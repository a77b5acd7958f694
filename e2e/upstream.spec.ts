import type { Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  completion,
  startFakeUpstream,
  type FakeUpstream,
} from '../src-main/engine/upstream/testing/fake-upstream.ts';
import { expect, test } from './fixtures.ts';
import { importThroughPicker } from './support/screens.ts';
import { workDir } from './support/datasets.ts';

const screenshots = join(import.meta.dirname, 'screenshots');
const KEY = 'sk-e2e-upstream-0123456789abcdef';
const clean = { passed: true, issues: [] };

/**
 * The Models settings in the GUI: point svc-audit-1 at an OpenAI-compatible
 * server (a real HTTP server in this test process, standing for Ollama or a
 * hosted API), test the connection, run an audit from the grid on it, and go
 * back to the builtin engine.
 */
/** The tokens of the owner's own runs the Keys screen counts over 30 days. */
async function ownerTokens(page: Page): Promise<number> {
  // The screen's figures arrive together: the ledger's welcome grant says they are in.
  await expect(page.getByTestId('ledger')).toContainText('welcome credit');
  const text = await page.getByTestId('owner-usage').innerText();
  return Number(/\(([\d,]+) tokens/.exec(text)?.[1]?.replaceAll(',', '') ?? NaN);
}

test.describe('an upstream model from the Settings screen', () => {
  let upstream: FakeUpstream;
  test.beforeAll(async () => {
    upstream = await startFakeUpstream(
      () =>
        completion(
          {
            fluency: clean,
            coherence: {
              passed: false,
              issues: [{ code: 'off_topic', message: 'says nothing', severity: 'error' }],
            },
            formatting: clean,
            safety: clean,
          },
          { prompt_tokens: 400, completion_tokens: 40 },
        ),
      ['fake-model', 'other-model'],
    );
  });
  test.afterAll(() => upstream.close());

  test('configures svc-audit-1, tests it, audits on it, and turns it off again', async ({
    page,
    svc,
  }) => {
    await page.goto(`${svc.baseUrl}/#/settings`);
    const card = page.getByTestId('engine-audit');
    await card.getByLabel('OpenAI-compatible server').check();
    await card.getByLabel('Base URL').fill(upstream.url);
    await card.getByLabel('API key').fill(KEY);
    await card.getByRole('button', { name: 'Save svc-audit-1' }).click();
    await expect(page.getByTestId('engine-audit-in-force')).toContainText(`at ${upstream.url}`);
    // the key never comes back in full
    await expect(card.getByLabel('API key')).toHaveAttribute('placeholder', /sk-…cdef/);
    await expect(page.locator('body')).not.toContainText(KEY);

    // two models and none chosen: the test says so and offers them
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('status')).toContainText('serves 2 models: choose one');
    await card.getByRole('button', { name: 'fake-model' }).click();
    await card.getByRole('button', { name: 'Save svc-audit-1' }).click();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByRole('status')).toContainText('reachable; it serves fake-model');
    await page.screenshot({ path: join(screenshots, 'settings-upstream.png'), fullPage: true });

    // an audit from the grid runs on it and is billed by its usage
    const path = join(workDir(), 'notes.jsonl');
    writeFileSync(
      path,
      ['How do I boil an egg?', 'Bananas are a fruit.', 'The sky is blue.']
        .map((text, id) => JSON.stringify({ id, text }))
        .join('\n') + '\n',
    );
    const before = upstream.requests.length;
    // The owner's usage so far (other tests share this server): the audit must add its own.
    await page.goto(`${svc.baseUrl}/#/keys`);
    const usageBefore = await ownerTokens(page);
    await importThroughPicker(page, svc.baseUrl, path, 3);
    await page.getByLabel('Operation').selectOption({ label: 'Audit' });
    await page.getByRole('button', { name: 'Start audit' }).click();
    await expect(page.getByTestId('run-status')).toContainText('done');
    expect(upstream.requests.length - before).toBe(3);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(upstream.requests.at(-1)?.body.model).toBe('fake-model');
    await page.getByTestId('grid-row').first().click();
    await expect(page.getByTestId('verdicts')).toContainText('upstream_off_topic');
    // 3 x (400 in, 40 out): the owner's run records its usage and spends no credit
    await page.goto(`${svc.baseUrl}/#/keys`);
    await expect.poll(() => ownerTokens(page)).toBe(usageBefore + 1320);
    await expect(page.getByTestId('ledger')).not.toContainText('app audit');

    // back to the builtin engine
    await page.goto(`${svc.baseUrl}/#/settings`);
    await card.getByLabel('Builtin (offline)').check();
    await card.getByRole('button', { name: 'Save svc-audit-1' }).click();
    await expect(page.getByTestId('engine-audit-in-force')).toHaveText('In force: builtin');
  });
});
