import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, startSvc, stopSvc, test } from './fixtures.ts';

const screenshots = join(import.meta.dirname, 'screenshots');
mkdirSync(screenshots, { recursive: true });

test('the printed one-time link signs a browser in, once', async ({ browser }) => {
  const server = await startSvc();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(server.ownerLink);
    await expect(page).toHaveURL(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'Server' }).click();
    await expect(page.getByTestId('server-state')).toHaveText('Running');
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(server.ownerLink);
    await expect(second).toHaveURL(/#\/signed-out$/);
    await context.close();
    await other.close();
  } finally {
    await stopSvc(server);
  }
});

test('the Server screen shows the live address and the model list', async ({ page, svc }) => {
  await page.goto(`${svc.baseUrl}/`);

  await page.getByRole('link', { name: 'Server' }).click();
  await expect(page).toHaveURL(/#\/server$/);
  await expect(page.getByRole('heading', { name: 'Server' })).toBeVisible();
  await expect(page.getByTestId('server-state')).toHaveText('Running');
  await expect(page.getByTestId('server-url')).toHaveText(svc.baseUrl);

  const rows = page.getByTestId('model-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('svc/audit-1');
  await expect(rows.nth(1)).toContainText('svc/fix-1');
  await expect(rows.nth(2)).toContainText('svc/refine-1');
  await expect(rows.nth(0)).toContainText('$0.50');
  await expect(rows.nth(0)).toContainText('32,768');

  await page.screenshot({ path: join(screenshots, 'server.png'), fullPage: true });
});

test('every navigation entry opens its screen', async ({ page, svc }) => {
  await page.goto(`${svc.baseUrl}/#/datasets`);
  for (const [link, heading] of [
    ['Datasets', 'Datasets'],
    ['Keys', 'Keys & credits'],
    ['Settings', 'Settings'],
    ['Server', 'Server'],
  ] as const) {
    await page.getByRole('link', { name: link, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
});

test('without a session the app says how to sign in', async ({ browser, svc }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${svc.baseUrl}/#/server`);
  await expect(page.getByRole('alert')).toContainText('Not signed in');
  await page.screenshot({ path: join(screenshots, 'signed-out.png') });
  await context.close();
});
