import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import { importThroughPicker, REVIEW_VIEWPORTS, sizedScreenshot } from './support/screens.ts';

/**
 * Duplicates get the right main action (issue 25, item 5): a copy is shown
 * beside the row it repeats, the words they do not share marked, with "Drop
 * this copy" as the main action and "Keep both (not a duplicate)", which the
 * next scan remembers. At 1280x720 and 1440x900.
 */

const dir = workDir();

for (const viewport of REVIEW_VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a copy beside the row it repeats: drop this copy, or keep both and the scan remembers', async ({
      page,
      svc,
    }) => {
      // CommonsenseQA's first 60 rows: row 4 shouted at 31, row 8 copied as is at 47.
      const rows = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 60);
      rows.splice(30, 0, {
        ...rows[3],
        id: 'shouted-4',
        question: String(rows[3]?.question).toUpperCase(),
      });
      rows.splice(46, 0, { ...rows[7], id: 'copy-8' });
      const name = `csqa_pairs_${viewport.width}`;
      const path = await writeDataset(dir, name, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 62);

      await page.getByRole('tab', { name: 'Overview' }).click();
      await page
        .getByTestId('overview')
        .getByRole('button', { name: 'duplicates: 2 failed' })
        .click();
      await expect(page.getByTestId('row-count')).toHaveText('2 rows');
      await page.getByTestId('grid-row').first().click();
      const review = page.getByTestId('review');
      await expect(review.getByRole('heading', { name: 'Row 31' })).toBeVisible();

      // The pair side by side: the kept row and this copy, the words set in capitals marked.
      const pair = review.getByTestId('duplicate-pair');
      await expect(pair).toContainText('An exact copy of row 4');
      await expect(pair.getByRole('columnheader', { name: 'Row 4 (kept)' })).toBeVisible();
      await expect(pair.getByRole('columnheader', { name: 'Row 31 (this copy)' })).toBeVisible();
      const question = String(rows[3]?.question);
      const firstWord = question.split(' ')[0] ?? '';
      await expect(pair.getByTestId('diff-before').first()).toContainText(question);
      await expect(pair.getByTestId('diff-after').first()).toContainText(question.toUpperCase());
      await expect(pair.getByTestId('diff-after').first().locator('mark.added').first()).toHaveText(
        firstWord.toUpperCase(),
      );
      // The choices, the same in both, are not marked.
      await expect(pair.locator('tbody tr').nth(1).locator('mark')).toHaveCount(0);
      // The main action is to drop the copy; keeping both is the other.
      const drop = pair.getByRole('button', { name: 'Drop this copy' });
      await expect(drop).toHaveClass(/primary/);
      await expect(drop).toBeInViewport();
      await expect(pair.getByRole('button', { name: 'Keep both (not a duplicate)' })).toBeVisible();
      await expect(review.locator('.button.primary')).toHaveCount(1);
      await page.screenshot({ path: sizedScreenshot('duplicate-pair', page) });

      // Keep both: the rescan no longer reports the pair; the other copy is still a copy.
      await pair.getByRole('button', { name: 'Keep both (not a duplicate)' }).click();
      await expect(page.getByTestId('row-count')).toHaveText('1 row', { timeout: 15_000 });
      await expect(review.getByTestId('duplicate-pair')).toHaveCount(0);
      await expect(review).not.toContainText('exact_duplicate');
      await expect(review).toContainText('Not audited yet.');
      await page.screenshot({ path: sizedScreenshot('duplicate-kept-both', page) });

      // Drop this copy: the other one leaves the export. (The grid shows the rescan's rows once
      // they are read: clicking before could open row 31 again.)
      await expect(page.getByTestId('grid-row')).toHaveCount(1);
      await expect(page.getByTestId('grid-row').first()).toContainText('47');
      await page.getByTestId('grid-row').first().click();
      await expect(review.getByRole('heading', { name: 'Row 47' })).toBeVisible();
      await expect(review.getByTestId('duplicate-pair')).toContainText('An exact copy of row 8');
      await review.getByRole('button', { name: 'Drop this copy' }).click();
      await page.getByLabel('Failed check').selectOption('');
      await page.getByLabel('Decision').selectOption('dropped');
      await expect(page.getByTestId('row-count')).toHaveText('1 row');
      await expect(page.getByTestId('grid-row').first()).toContainText('47');

      // Remembered: after a reload, a new scan (the drop asked for one) still keeps row 31.
      await page.reload();
      await page.locator('.dataset-item', { hasText: name }).click();
      await page.getByRole('tab', { name: 'Overview' }).click();
      await expect(page.getByTestId('duplicate-groups')).toContainText('Duplicate groups (0)', {
        timeout: 15_000,
      });
    });
  });
}
