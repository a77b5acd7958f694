import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { importThroughPicker } from './support/screens.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';

/**
 * The dataset as a whole in the app: the Overview after an import (findings,
 * bars per check and issue code that filter the grid, the answer-position
 * chart, duplicate groups), and keeping the first of each group.
 */

const screenshots = join(import.meta.dirname, 'screenshots');
const dir = workDir();

test.use({ viewport: { width: 1280, height: 720 } });

test.describe('the Overview', () => {
  test('finds injected copies and TruthfulQA-like answer skew; a bar filters the grid; drop the others', async ({
    page,
    svc,
  }) => {
    // CommonsenseQA's first 80 rows: row 4 again at 40 (choices reordered), row 9 shouted at 60.
    const rows = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 80);
    const four = rows[4] as { choices: { label: string[]; text: string[] }; answerKey: string };
    rows.splice(40, 0, {
      ...four,
      id: 'copy-4',
      choices: { label: four.choices.label, text: [...four.choices.text].reverse() },
      answerKey: four.choices.label[4 - four.choices.label.indexOf(four.answerKey)],
    });
    rows.splice(60, 0, {
      ...rows[9],
      id: 'copy-9',
      question: String(rows[9]?.question).toUpperCase(),
    });
    const path = await writeDataset(dir, 'csqa-copies', 'jsonl', rows);

    await importThroughPicker(page, svc.baseUrl, path, 82);

    await page.getByRole('tab', { name: 'Overview' }).click();
    const overview = page.getByTestId('overview');
    // The scan runs in the background beside other datasets' (a 200k-row one imported earlier).
    await expect(overview.getByTestId('findings')).toContainText(
      '2 rows repeat an earlier one, in 2 groups (2 exact, 0 near)',
      { timeout: 60_000 },
    );
    const groups = overview.getByTestId('duplicate-groups');
    await expect(groups).toContainText('Duplicate groups (2)');
    await expect(groups).toContainText('row 5 (first)');
    await expect(groups).toContainText('row 41');
    await page.screenshot({ path: join(screenshots, 'overview-1280x720.png') });

    // A click on the duplicates bar shows those rows in the grid.
    await overview.getByRole('button', { name: 'duplicates: 2 failed' }).click();
    await expect(page.getByTestId('row-count')).toHaveText('2 rows');
    await expect(page.getByLabel('Failed check')).toHaveValue('duplicates');
    await page.getByTestId('grid-row').first().click();
    await expect(page.getByTestId('verdicts')).toContainText('exact_duplicate');

    // Keep the first of each group: the copies are dropped, the rescan clears the groups.
    await page.getByRole('tab', { name: 'Overview' }).click();
    await groups
      .getByRole('button', { name: 'Keep the first of each group, drop the others' })
      .click();
    await groups.getByRole('button', { name: 'Drop', exact: true }).click();
    await expect(groups).toContainText('Duplicate groups (0)', { timeout: 15_000 });
    await expect(overview).toContainText('80 rows');
    // The dataset list says how many rows are dropped.
    await expect(
      page.locator('.dataset-item', { hasText: 'csqa-copies' }).getByTestId('dataset-dropped'),
    ).toHaveText('2 rows dropped');
    await page.getByRole('tab', { name: 'Rows' }).click();
    // dropped rows leave the duplicate groups: they are found by their decision
    await page.getByLabel('Failed check').selectOption('');
    await page.getByLabel('Decision').selectOption('dropped');
    await expect(page.getByTestId('row-count')).toHaveText('2 rows');
  });

  test("shows TruthfulQA's answers all at option A", async ({ page, svc }) => {
    const path = await writeDataset(
      dir,
      'truthfulqa',
      'jsonl',
      readRows('truthfulqa_mc_task_first200.jsonl'),
    );
    await importThroughPicker(page, svc.baseUrl, path, 200);
    await page.getByRole('button', { name: 'Start audit' }).click();
    await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
    await page.getByRole('tab', { name: 'Overview' }).click();
    const overview = page.getByTestId('overview');
    await expect(overview.getByTestId('findings')).toContainText(
      'option A is right in 200 of 200 items',
      { timeout: 60_000 },
    );
    const positions = overview.getByRole('img', { name: 'Items labelled at each position' });
    await expect(positions).toBeVisible();
    // Each letter's count is written above its column: A holds all 200.
    await expect(positions.locator('text.column-value').first()).toHaveText('200');
    await page.screenshot({ path: join(screenshots, 'overview-truthfulqa-1280x720.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: join(screenshots, 'overview-truthfulqa-1440x900.png') });
  });
});
