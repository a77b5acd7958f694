import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';

/**
 * Benchmark contamination in the app: GSM8K test items planted in
 * CommonsenseQA rows (the Overview's bars filter the grid to them, the
 * review says which item and highlights the shared span), a dataset marked
 * as an evaluation set and its rows found in another (the matched row shown
 * beside), the GSM8K test file as itself, and the setting.
 */

const screenshots = join(import.meta.dirname, 'screenshots');
const dir = workDir();
const csqa = () => readRows('commonsenseqa_validation_first200.jsonl');
const gsm8k = () => readRows('gsm8k_test_first300.jsonl') as { question: string; answer: string }[];

test.use({ viewport: { width: 1280, height: 720 } });

async function importFile(page: Page, path: string, rows: number) {
  await page.getByTestId('file-picker').setInputFiles(path);
  await page.getByTestId('import-dialog').getByRole('button', { name: 'Import' }).click();
  await expect(page.getByTestId('row-count')).toHaveText(`${rows} rows`);
}

async function both(page: Page, name: string) {
  await page.screenshot({ path: join(screenshots, `${name}-1280x720.png`) });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: join(screenshots, `${name}-1440x900.png`) });
  await page.setViewportSize({ width: 1280, height: 720 });
}

test.describe('benchmark contamination', () => {
  test('GSM8K test items planted in CommonsenseQA: a bar per benchmark filters the grid; the review names the item and highlights it', async ({
    page,
    svc,
  }) => {
    const items = gsm8k();
    const seven = items[7] as { question: string; answer: string };
    const twelve = items[12] as { question: string; answer: string };
    const rows = csqa().slice(0, 40);
    // row 4: item 7 whole (question and worked answer) after a lead-in; row 10: item 12's question
    rows[3] = { ...rows[3], question: `Here is one to try: ${seven.question} ${seven.answer}` };
    rows[9] = { ...rows[9], question: twelve.question };
    const path = await writeDataset(dir, 'csqa-with-gsm8k', 'jsonl', rows);

    await page.goto(`${svc.baseUrl}/#/datasets`);
    await importFile(page, path, 40);
    await page.getByRole('tab', { name: 'Overview' }).click();
    const card = page.getByTestId('contamination');
    await expect(card).toContainText('Benchmark contamination (2 rows hold evaluation items)', {
      timeout: 30_000,
    });
    const bar = card.getByRole('button', { name: 'GSM8K test: 2 rows, 2 distinct items' });
    await expect(bar).toBeVisible();
    await expect(card.getByRole('button')).toHaveCount(1);
    await expect(page.getByTestId('benchmark-dataset')).toHaveCount(0);
    await both(page, 'contamination-overview');

    // The bar shows exactly the two rows.
    await bar.click();
    await expect(page.getByTestId('row-count')).toHaveText('2 rows');
    await expect(page.getByTestId('benchmark-filter')).toHaveText(/holds GSM8K test/);
    await page.getByTestId('grid-row').first().click();
    const review = page.getByTestId('review');
    await expect(review.getByRole('heading', { name: 'Row 4' })).toBeVisible();
    const evidence = review.getByTestId('evidence');
    await expect(evidence.getByTestId('overlap-head')).toHaveText(
      'GSM8K test item 7, 100% of its n-grams (most of them in the context): the row holds it',
    );
    await expect(evidence.getByTestId('benchmark-identity')).toContainText(
      'Item 7 (0-based line) of GSM8K test, 1319 items',
    );
    // The shared span: the item as planted, not the lead-in.
    const span = evidence.getByTestId('shared-span');
    await expect(span).toHaveCount(1);
    await expect(span).toContainText('Carla is downloading a 200 GB file');
    await expect(span).toContainText('#### 160');
    await expect(span).not.toContainText('Here is one to try');
    await expect(review.getByTestId('verdicts')).toContainText('benchmark_overlap');
    await both(page, 'contamination-review');

    // The other row: item 12's question alone, most of its question and less of the item.
    await page.getByTestId('grid-row').nth(1).click();
    await expect(review.getByRole('heading', { name: 'Row 10' })).toBeVisible();
    await expect(evidence.getByTestId('overlap-head')).toContainText('GSM8K test item 12');
    await expect(evidence.getByTestId('shared-span')).toContainText(
      'Carlos is planting a lemon tree',
    );

    // Both dropped at once from the filter; with it cleared, the dropped rows are those two.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Drop all shown' }).click();
    await page.getByRole('button', { name: 'Drop', exact: true }).click();
    await page.getByRole('button', { name: 'Clear the benchmark filter' }).click();
    await expect(page.getByTestId('row-count')).toHaveText('40 rows');
    await page.getByLabel('Decision').selectOption('dropped');
    await expect(page.getByTestId('row-count')).toHaveText('2 rows');
    await expect(page.getByTestId('grid-row').first()).toContainText('Here is one to try');
  });

  test('a dataset marked as an evaluation set: its rows found in another, the matched row beside; unmarked again', async ({
    page,
    svc,
  }) => {
    const all = csqa();
    const evalRows = all.slice(100, 140);
    const train = all.slice(0, 50);
    // rows 6 and 21 of the evaluation set (indices 5 and 20) copied into the training rows
    train.splice(12, 0, { ...evalRows[5], id: 'leak-1' });
    train.splice(30, 0, { ...evalRows[20], id: 'leak-2' });
    const evalPath = await writeDataset(dir, 'csqa-eval', 'jsonl', evalRows);
    const trainPath = await writeDataset(dir, 'csqa-train', 'jsonl', train);

    await page.goto(`${svc.baseUrl}/#/datasets`);
    await importFile(page, evalPath, 40);
    const list = page.getByRole('navigation', { name: 'Datasets' });
    const evalItem = list.getByRole('button', { name: /csqa-eval/ });
    await expect(evalItem).not.toContainText('eval set');
    await page.getByRole('button', { name: 'Mark as evaluation set' }).click();
    await expect(evalItem).toContainText('eval set');
    await expect(page.getByTestId('eval-set-state')).toHaveText('evaluation set');
    await both(page, 'contamination-eval-set');

    await importFile(page, trainPath, 52);
    await page.getByRole('tab', { name: 'Overview' }).click();
    const card = page.getByTestId('contamination');
    const bar = card.getByRole('button', {
      name: 'evaluation set “csqa-eval”: 2 rows, 2 distinct items',
    });
    await expect(bar).toBeVisible({ timeout: 30_000 });
    await bar.click();
    await expect(page.getByTestId('row-count')).toHaveText('2 rows');
    await page.getByTestId('grid-row').first().click();
    const review = page.getByTestId('review');
    await expect(review.getByRole('heading', { name: 'Row 13' })).toBeVisible();
    const evidence = review.getByTestId('evidence');
    await expect(evidence.getByTestId('overlap-head')).toContainText('row 6 of “csqa-eval”');
    await expect(review.getByTestId('verdicts')).toContainText('split_overlap');
    // The evaluation set's row beside the row, read from its dataset.
    const matched = evidence.getByTestId('eval-row');
    await expect(evidence.locator('figcaption').nth(1)).toHaveText(
      'row 6 of “csqa-eval”, an evaluation set in the app',
    );
    await expect(matched).toContainText(String(evalRows[5]?.question));
    await expect(evidence.getByTestId('shared-span')).toContainText(
      String(evalRows[5]?.question).slice(0, 20),
    );
    await both(page, 'contamination-split-overlap');

    // Unmarked: the badge goes, and the training set's rescan finds nothing.
    await page.keyboard.press('Escape');
    await list.getByRole('button', { name: /csqa-eval/ }).click();
    await page.getByRole('button', { name: 'Not an evaluation set' }).click();
    await expect(evalItem).not.toContainText('eval set');
    await expect(page.getByTestId('eval-set-state')).toHaveCount(0);
    await list.getByRole('button', { name: /csqa-train/ }).click();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByTestId('overview')).toContainText('52 rows');
    await expect(page.getByTestId('contamination')).toHaveCount(0, { timeout: 30_000 });
  });

  test('the GSM8K test file itself: said plainly, its rows warn', async ({ page, svc }) => {
    const path = await writeDataset(dir, 'gsm8k-test-60', 'jsonl', gsm8k().slice(0, 60));
    await page.goto(`${svc.baseUrl}/#/datasets`);
    await importFile(page, path, 60);
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByTestId('benchmark-dataset')).toHaveText(
      'This dataset is GSM8K test itself: 60 rows are its items. They warn instead of failing, so the rest of the audit stays readable.',
      { timeout: 30_000 },
    );
    const bar = page
      .getByTestId('contamination')
      .getByRole('button', { name: 'GSM8K test: 60 rows, 60 distinct items' });
    await expect(bar).toBeVisible();
    // Its rows warn, and no row is audited yet: the checks' card says why it shows no warning.
    await expect(page.getByTestId('overview')).toContainText(
      'No dataset check failed. No row is audited yet: an audit adds every other check, and the warnings.',
    );
    await both(page, 'contamination-benchmark-dataset');
    await bar.click();
    await expect(page.getByTestId('row-count')).toHaveText('60 rows');

    // Not audited, its rows only warn: the review already says which item each is, and so it
    // does after an audit.
    await page.getByTestId('grid-row').nth(7).click();
    const review = page.getByTestId('review');
    await expect(review.getByTestId('overlap-head')).toHaveText(
      'GSM8K test item 7, 100% of its n-grams (most of them in the answer): it warns',
    );
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Start audit' }).click();
    await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
    await page.getByTestId('grid-row').nth(7).click();
    await expect(review.getByRole('heading', { name: 'Row 8' })).toBeVisible();
    await expect(review.getByTestId('overlap-head')).toHaveText(
      'GSM8K test item 7, 100% of its n-grams (most of them in the answer): it warns',
    );
    await expect(review.getByTestId('verdicts')).toContainText('warns only: the run is GSM8K test');
    // Every row of the file warns so: the card folds to its head, the row's own sample in sight.
    const card = review.locator('details.overlap');
    await expect(card).not.toHaveAttribute('open');
    await expect(review.getByTestId('sample-diff')).toBeInViewport();
    await card.getByTestId('overlap-head').click();
    // The span runs from the first to the last n-gram kept of the item (a quarter are kept).
    const span = review.getByTestId('shared-span');
    await expect(span).toContainText('find how many gigabytes are in 40% of the file');
    await expect(span).toContainText('#### 160');
    await both(page, 'contamination-benchmark-dataset-review');
  });

  test('the setting: all, none, or a list the server checks', async ({ page, svc }) => {
    await page.goto(`${svc.baseUrl}/#/settings`);
    const setting = page.getByTestId('contamination-setting');
    await expect(setting.getByLabel('every shipped benchmark')).toBeChecked();
    await setting.getByLabel('these benchmarks:').check();
    const list = setting.getByLabel('Benchmarks to look for');
    await expect(list).toHaveValue('gsm8k,math,humaneval,mbpp,truthfulqa,bbh,ifeval');
    await list.fill('gsm8k, mmlu');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('unknown benchmark "mmlu"');
    await expect(setting.getByTestId('benchmark-list-error')).toHaveText(
      /^unknown benchmark "mmlu": takes all, none, or names separated by commas/,
    );
    await expect(list).toHaveAttribute('aria-invalid', 'true');
    await both(page, 'contamination-setting');

    await list.fill('gsm8k,math');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expect(setting.getByTestId('benchmark-list-error')).toHaveCount(0);
    await page.reload();
    await expect(setting.getByLabel('Benchmarks to look for')).toHaveValue('gsm8k,math');

    await setting.getByRole('radio', { name: /none/ }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await page.reload();
    await expect(setting.getByRole('radio', { name: /none/ })).toBeChecked();

    // Back to every benchmark, as the other tests of this server expect.
    await setting.getByLabel('every shipped benchmark').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  });
});
