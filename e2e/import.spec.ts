/// <reference lib="dom" />
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import { dropFile, exportAs } from './support/screens.ts';

const screenshots = join(import.meta.dirname, 'screenshots');

async function importVia(page: Page, how: 'drop' | 'picker', path: string, expectedShape: string) {
  if (how === 'drop') await dropFile(page, path);
  else await page.getByTestId('file-picker').setInputFiles(path);
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('detected')).toContainText(`detected: ${expectedShape}`);
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** GSM8K's questions repeated to `rows` rows, each numbered: a large file of distinct rows. */
function numberedGsm8k(path: string, rows: number): string {
  const base = readRows('gsm8k_test_first300.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const row = base[i % base.length] as { question: string; answer: string };
    lines.push(JSON.stringify({ question: `${row.question} (#${i})`, answer: row.answer }));
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

test.describe('import', () => {
  const dir = workDir();
  const gsm = readRows('gsm8k_test_first300.jsonl').slice(0, 40);
  const csqa = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 30);

  test('imports each format by drop and by the picker, with the shape detected', async ({
    page,
    svc,
  }) => {
    await page.goto(`${svc.baseUrl}/`);
    await page.getByRole('link', { name: 'Datasets' }).click();
    const cases = [
      ['drop', await writeDataset(dir, 'gsm-drop', 'jsonl', gsm), 'gsm8k', 40],
      ['picker', await writeDataset(dir, 'gsm-pick', 'json', gsm), 'gsm8k', 40],
      ['drop', await writeDataset(dir, 'csqa-drop', 'csv', csqa), 'commonsenseqa', 30],
      ['picker', await writeDataset(dir, 'csqa-pick', 'parquet', csqa), 'commonsenseqa', 30],
    ] as const;
    for (const [how, path, shape, rows] of cases) {
      await importVia(page, how, path, shape);
      await expect(page.getByTestId('row-count')).toHaveText(`${rows} rows`);
      await expect(page.getByTestId('grid-row').first()).toContainText(
        shape === 'gsm8k' ? 'Q & A' : 'choice',
      );
    }
    // The server is shared by the specs of a worker: other specs' datasets may be listed too.
    await expect(page.locator('.dataset-item', { hasText: /^(gsm|csqa)-(drop|pick)/ })).toHaveCount(
      4,
    );
    await page.screenshot({ path: join(screenshots, 'datasets.png'), fullPage: true });
  });

  test("reads a TSV and a spreadsheet's semicolon CSV as their columns", async ({ page, svc }) => {
    // A semicolon-separated export, as a spreadsheet writes it where the comma is the decimal mark.
    const cell = (text: string): string =>
      /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    const semicolons = join(dir, 'gsm-semicolons.csv');
    writeFileSync(
      semicolons,
      [
        'question;answer',
        ...gsm.map((row) => `${cell(String(row.question))};${cell(String(row.answer))}`),
      ].join('\r\n') + '\r\n',
    );
    await page.goto(`${svc.baseUrl}/`);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.setViewportSize({ width: 1280, height: 720 });
    const tabs = await writeDataset(dir, 'csqa-tabs', 'tsv', csqa);
    await dropFile(page, tabs);
    const dialog = page.getByTestId('import-dialog');
    await expect(dialog.getByTestId('detected')).toContainText('detected: commonsenseqa');
    await expect(dialog).toContainText('TSV, 7 KiB');
    await page.screenshot({ path: join(screenshots, 'import-tsv-1280x720.png') });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await expect(page.getByTestId('row-count')).toHaveText('30 rows');
    await expect(page.getByText('csqa-tabs.tsv · TSV · commonsenseqa')).toBeVisible();
    await importVia(page, 'picker', semicolons, 'gsm8k');
    await expect(page.getByTestId('row-count')).toHaveText('40 rows');
    await expect(page.getByTestId('grid-row').first()).toContainText('Q & A');
  });

  test('imports files dropped together one after another', async ({ page, svc }) => {
    const first = await writeDataset(dir, 'pair-one', 'jsonl', gsm.slice(0, 5));
    const second = await writeDataset(dir, 'pair-two', 'csv', csqa.slice(0, 7));
    await page.goto(`${svc.baseUrl}/#/server`);
    await dropFile(page, first, second);
    const dialog = page.getByTestId('import-dialog');
    await expect(dialog).toContainText('Import pair-one.jsonl');
    await expect(dialog).toContainText('1 more file waits: pair-two.csv');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog).toContainText('Import pair-two.csv');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('.dataset-item', { hasText: 'pair-one' })).toContainText('5 rows');
    await expect(page.locator('.dataset-item', { hasText: 'pair-two' })).toContainText('7 rows');
  });

  test('shows the first rows of a large file while the rest imports', async ({ page, svc }) => {
    test.setTimeout(180_000);
    const rows = 200_000;
    const path = numberedGsm8k(join(dir, 'large.jsonl'), rows);
    await page.goto(`${svc.baseUrl}/`);
    await page.getByRole('link', { name: 'Datasets' }).click();
    // Whether rows were ever on screen beside the import's progress, however fast the import.
    await page.evaluate(() => {
      const seen = window as unknown as { rowsWhileImporting: boolean };
      seen.rowsWhileImporting = false;
      new MutationObserver(() => {
        if (
          document.querySelector('[data-testid=importing]') &&
          document.querySelector('[data-testid=grid-row]')
        ) {
          seen.rowsWhileImporting = true;
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await page.getByTestId('file-picker').setInputFiles(path);
    const dialog = page.getByTestId('import-dialog');
    // In a browser the file is uploaded before its preview (the desktop app reads it in place).
    await expect(dialog.getByTestId('detected')).toContainText('detected: gsm8k', {
      timeout: 60_000,
    });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByTestId('grid-row').first()).toContainText('Q & A', { timeout: 30_000 });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: join(screenshots, 'import-growing.png') });
    await expect(page.getByTestId('importing')).toBeHidden({ timeout: 150_000 });
    await expect(page.getByTestId('row-count')).toHaveText(`${rows.toLocaleString('en-US')} rows`);
    expect(
      await page.evaluate(
        () => (window as unknown as { rowsWhileImporting: boolean }).rowsWhileImporting,
      ),
    ).toBe(true);
  });

  test('stops an import and keeps nothing of it when asked', async ({ page, svc }) => {
    test.setTimeout(120_000);
    const rows = 100_000;
    const path = numberedGsm8k(join(dir, 'unwanted.jsonl'), rows);
    await page.goto(`${svc.baseUrl}/`);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByTestId('file-picker').setInputFiles(path);
    const dialog = page.getByTestId('import-dialog');
    await expect(dialog.getByTestId('detected')).toContainText('detected: gsm8k', {
      timeout: 60_000,
    });
    await dialog.getByRole('button', { name: 'Import' }).click();
    const importing = page.getByTestId('importing');
    await expect(importing).toBeVisible({ timeout: 30_000 });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: join(screenshots, 'import-stoppable.png') });
    await importing.getByRole('button', { name: 'Stop and discard' }).click();
    await expect(importing).toBeHidden({ timeout: 30_000 });
    await expect(page.locator('.dataset-item', { hasText: 'unwanted' })).toHaveCount(0);
    await expect(page.getByTestId('import-dialog')).toBeHidden();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await page.screenshot({ path: join(screenshots, 'import-stopped.png') });
  });

  test('reports bad rows with their row numbers and skips them', async ({ page, svc }) => {
    const path = join(dir, 'broken.jsonl');
    const lines = gsm.slice(0, 5).map((r) => JSON.stringify(r));
    lines.splice(2, 0, '{not json');
    (await import('node:fs')).writeFileSync(path, lines.join('\n') + '\n');
    await page.goto(`${svc.baseUrl}/`);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.getByTestId('file-picker').setInputFiles(path);
    const dialog = page.getByTestId('import-dialog');
    await expect(dialog).toContainText('3');
    await expect(dialog.locator('.error-text').first()).toBeVisible();
    await expect(dialog).toContainText(
      '1 of the first 6 rows does not fit this mapping or cannot be read',
    );
    await page.screenshot({ path: join(screenshots, 'import-preview.png') });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(page.getByTestId('row-count')).toHaveText('5 rows');
    await expect(page.locator('.dataset-item.active')).toContainText('1 skipped');
    // the report names the skipped row and why
    await page.getByTestId('skipped-rows').click();
    const report = page.getByTestId('import-report');
    await expect(report.getByRole('row').nth(1)).toContainText('3');
    await expect(report).toContainText('JSON');
    await page.screenshot({ path: join(screenshots, 'import-report.png') });
    await report.getByRole('button', { name: 'Close' }).click();
    await expect(report).toHaveCount(0);
    // The export's line says the file lacks it too.
    await exportAs(page, 'jsonl');
    await expect(page.getByTestId('export-result')).toHaveText(
      /^JSONL exported: 5 rows, .+; 1 source row was skipped at import and is not in it$/,
    );
  });

  test('says where a file holds bytes that are not UTF-8, and what became of them', async ({
    page,
    svc,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    // A spreadsheet saved as Windows-1252: "café" on line 3 is 63 61 66 e9.
    const path = join(dir, 'cp1252.csv');
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from('text\nA fine first row.\nA '),
        Buffer.from([0x63, 0x61, 0x66, 0xe9]),
        Buffer.from(' on the corner.\n'),
      ]),
    );
    await page.goto(`${svc.baseUrl}/#/datasets`);
    await importVia(page, 'picker', path, 'text');
    await expect(page.getByTestId('row-count')).toHaveText('2 rows');
    await page.getByTestId('not-utf8-line').click();
    const report = page.getByTestId('import-report');
    await expect(report.getByTestId('not-utf8')).toContainText(
      'Line 3 of cp1252.csv (and maybe later lines) holds bytes that are not UTF-8',
    );
    // Nothing was skipped: no table of skipped rows.
    await expect(report.getByRole('table')).toHaveCount(0);
    await page.screenshot({ path: join(screenshots, 'import-not-utf8-1280x720.png') });
    await report.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByTestId('grid-row').nth(1)).toContainText('caf\ufffd on the corner');
  });
});
