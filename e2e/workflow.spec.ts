import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { exportAs, importThroughPicker } from './support/screens.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';

const screenshots = join(import.meta.dirname, 'screenshots');
const dir = workDir();

async function runOperation(page: Page, operation: 'Audit' | 'Fix' | 'Refine') {
  await page.getByLabel('Operation').selectOption({ label: operation });
  await page.getByRole('button', { name: `Start ${operation.toLowerCase()}` }).click();
  await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
}

test.describe('the cleaning workflow', () => {
  test('audits GSM8K items with injected wrong answers and shows them failed', async ({
    page,
    svc,
  }) => {
    const rows = readRows('gsm8k_test_first300.jsonl').slice(0, 30);
    const altered = new Set([3, 11, 25]);
    const data = rows.map((row, i) =>
      altered.has(i)
        ? {
            ...row,
            answer: String(row.answer).replace(
              /#### (\d+)$/,
              (_m, n: string) => `#### ${Number(n) + 7}`,
            ),
          }
        : row,
    );
    const path = await writeDataset(dir, 'gsm-wrong', 'jsonl', data);
    await importThroughPicker(page, svc.baseUrl, path, 30);
    await page.getByRole('button', { name: 'Estimate' }).click();
    await expect(page.getByTestId('estimate')).toContainText('30 samples');
    await runOperation(page, 'Audit');
    await page.getByLabel('Failed check').selectOption({ label: 'failed answer_correct' });
    await expect(page.getByTestId('row-count')).toHaveText('3 rows');
    const rowsShown = page.getByTestId('grid-row');
    await expect(rowsShown).toHaveCount(3);
    await expect(rowsShown.first()).toContainText('answer_correct');
    await rowsShown.first().click();
    await expect(page.getByTestId('verdicts')).toContainText('answer_unsupported');
    await page.screenshot({ path: join(screenshots, 'audit-failed.png'), fullPage: true });
  });

  test('refines mojibake text, accepts one fix, bulk-accepts the rest, exports the clean file', async ({
    page,
    svc,
  }) => {
    // ftfy's first 13 in-the-wild cases but the sixth, whose "fix" decodes to U+FFFD (the text
    // was lost before it was mis-decoded; the engine leaves that flagged rather than guess),
    // plus two clean rows that must stay as they are.
    const cases = readRows('ftfy_mojibake_cases.jsonl')
      .slice(0, 13)
      .filter((_, i) => i !== 5);
    const rows = [
      ...cases.map((c, i) => ({
        id: i,
        text: c.original as string,
        expected: (c['fixed-encoding'] ?? c.fixed) as string,
      })),
      { id: 100, text: 'A clean sentence.', expected: 'A clean sentence.' },
      { id: 101, text: 'Another clean one.', expected: 'Another clean one.' },
    ];
    const path = join(dir, 'mojibake.jsonl');
    writeFileSync(path, rows.map(({ id, text }) => JSON.stringify({ id, text })).join('\n') + '\n');
    await page.goto(`${svc.baseUrl}/#/datasets`);
    await page.getByTestId('file-picker').setInputFiles(path);
    await expect(page.getByTestId('import-dialog').getByTestId('detected')).toContainText('text');
    await page.getByTestId('import-dialog').getByRole('button', { name: 'Import' }).click();
    await expect(page.getByTestId('row-count')).toHaveText(`${rows.length} rows`);
    await runOperation(page, 'Refine');

    // review one sample: original and fixed side by side, then accept it
    await page.getByTestId('grid-row').first().click();
    const review = page.getByTestId('review');
    await expect(review.getByTestId('diff-before')).toContainText('Justin');
    await expect(review.getByTestId('diff-after')).toContainText('Justin❤');
    await expect(review.getByTestId('changes')).toContainText('/text');
    await page.screenshot({ path: join(screenshots, 'review.png'), fullPage: true });
    await review.getByRole('button', { name: 'Accept fix' }).click();
    await expect(page.getByTestId('grid-row').first()).toContainText('accepted');

    // bulk: accept every changed row the filter shows
    await page.getByLabel('changed').check();
    // The count shown is the filter's once its first page is in (the two clean rows never change).
    await expect(page.getByTestId('row-count')).not.toHaveText(`${rows.length} rows`);
    const changed = Number((await page.getByTestId('row-count').innerText()).split(' ')[0]);
    expect(changed).toBeGreaterThanOrEqual(10);
    await page.getByRole('button', { name: 'Accept all shown' }).click();
    await expect(page.getByRole('group', { name: 'Confirm' })).toContainText(`${changed} rows`);
    // The row accepted in the review above is one of them, and said to be.
    await expect(page.getByRole('group', { name: 'Confirm' })).toContainText(
      '1 is accepted already.',
    );
    await page.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(page.getByTestId('bulk-result')).toContainText('accepted');
    await page.getByLabel('Decision').selectOption('accepted');
    await expect(page.getByTestId('row-count')).toHaveText(`${changed} rows`);
    await page.getByLabel('changed').uncheck();
    await page.getByLabel('Decision').selectOption('');

    // export: the original schema with the accepted fixes applied
    const exported = (await exportAs(page, 'jsonl'))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; text: string });
    expect(exported.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    for (const row of rows) {
      const out = exported.find((r) => r.id === row.id);
      expect(Object.keys(out ?? {})).toEqual(['id', 'text']);
      expect(out?.text.normalize('NFC')).toBe(row.expected.normalize('NFC'));
    }
    await page.screenshot({ path: join(screenshots, 'exported.png'), fullPage: true });
  });

  test('creates a key (shown once), sees the ledger, revokes the key', async ({ page, svc }) => {
    await page.goto(`${svc.baseUrl}/#/keys`);
    await page.getByLabel('Key name').fill('notebook');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').innerText();
    expect(key).toMatch(/^svc_[\w-]{43}$/);
    const table = page.getByTestId('keys-table');
    await expect(table).toContainText('notebook');
    await expect(table).not.toContainText(key);
    // the key works against the service until it is revoked
    const call = () =>
      fetch(`${svc.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect((await call()).status).toBe(200);
    await expect(page.getByTestId('credits')).toContainText('$');
    await page.screenshot({ path: join(screenshots, 'keys.png'), fullPage: true });
    await table
      .getByRole('row', { name: /notebook/ })
      .getByRole('button', { name: 'Revoke' })
      .click();
    // revoking asks first: clients using the key stop working
    expect((await call()).status).toBe(200);
    await table.getByRole('button', { name: 'Revoke key' }).click();
    await expect(table.getByRole('row', { name: /notebook/ })).toContainText('revoked');
    expect((await call()).status).toBe(401);
  });

  test('every screen renders (screenshots)', async ({ page, svc }) => {
    for (const screen of ['server', 'settings']) {
      await page.goto(`${svc.baseUrl}/#/${screen}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(screenshots, `${screen}-screen.png`), fullPage: true });
    }
  });
});
