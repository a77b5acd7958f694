/// <reference lib="dom" />
import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import { importThroughPicker, REVIEW_VIEWPORTS, sizedScreenshot } from './support/screens.ts';

/**
 * The dataset list and the grid change together: after a decision and the
 * rescan it asks for, the list never says "1 row dropped" while the grid
 * still shows the row undecided, nor the other way round. The grid's reads
 * are slowed down here so that a list read first would show: every state
 * the page goes through is recorded and compared.
 */

const dir = workDir();

interface Seen {
  listDropped: string;
  /** The grid's rows on screen: index, and whether it wears the "dropped" badge. */
  rows: { index: number; dropped: boolean }[];
}

for (const viewport of REVIEW_VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a drop shows in the dataset list and in the grid at once', async ({ page, svc }) => {
      // CommonsenseQA's first 60 rows, row 4 copied at 31 and row 8 at 47.
      const rows = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 60);
      rows.splice(30, 0, { ...rows[3], id: 'copy-4' });
      rows.splice(46, 0, { ...rows[7], id: 'copy-8' });
      const name = `csqa_together_${viewport.width}`;
      const path = await writeDataset(dir, name, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 62);
      await page.getByRole('tab', { name: 'Overview' }).click();
      await page
        .getByTestId('overview')
        .getByRole('button', { name: 'duplicates: 2 failed' })
        .click();
      await expect(page.getByTestId('row-count')).toHaveText('2 rows');

      // Every state the list and the grid show from now on.
      await page.evaluate(() => {
        const seen: Seen[] = [];
        (window as unknown as { seen: Seen[] }).seen = seen;
        const record = () => {
          const item = document.querySelector('.dataset-item.active');
          const state: Seen = {
            listDropped:
              item?.querySelector('[data-testid="dataset-dropped"]')?.textContent.trim() ?? '',
            rows: Array.from(document.querySelectorAll<HTMLElement>('.grid-row[data-index]')).map(
              (row) => ({
                index: Number(row.dataset.index),
                dropped: Array.from(row.querySelectorAll('.badge')).some(
                  (badge) => badge.textContent.trim() === 'dropped',
                ),
              }),
            ),
          };
          if (JSON.stringify(state) !== JSON.stringify(seen.at(-1))) seen.push(state);
        };
        record();
        new MutationObserver(record).observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
      });
      // The grid's rows come 0.4 s after the list would.
      await page.route('**/owner/datasetRows', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
      });

      await page.locator('.grid-row[data-index="30"]').click();
      const review = page.getByTestId('review');
      await expect(review.getByRole('heading', { name: 'Row 31' })).toBeVisible();
      await review.getByRole('button', { name: 'Drop this copy' }).click();
      const dropped = page
        .locator('.dataset-item', { hasText: name })
        .getByTestId('dataset-dropped');
      await expect(dropped).toHaveText('1 row dropped');
      // The rescan the drop asked for: the copy leaves the duplicates.
      await expect(page.getByTestId('row-count')).toHaveText('1 row', { timeout: 15_000 });
      await expect(page.locator('.grid-row[data-index="30"]')).toHaveCount(0);
      await page.screenshot({ path: sizedScreenshot('list-grid-together', page) });

      const seen = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
      // Whenever the grid shows the copy, its badge and the list agree on whether it is dropped.
      const disagreeing = seen.filter((state) => {
        const copy = state.rows.find((row) => row.index === 30);
        return copy !== undefined && copy.dropped !== (state.listDropped === '1 row dropped');
      });
      expect(seen.some((state) => state.listDropped === '1 row dropped')).toBe(true);
      expect(disagreeing).toEqual([]);
    });
  });
}
