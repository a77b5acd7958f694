import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import { importThroughPicker, REVIEW_VIEWPORTS, sizedScreenshot } from './support/screens.ts';

/**
 * The Overview has room (issue 25, item 7): scrolled, it takes the window's
 * height, the tabs staying on top; keeping the first of each group shows the
 * groups resolved at once, before any rescan. And the estimate (item 6): a
 * run of several seconds is estimated with a bound within 3x of what it
 * uses, and a short one is not estimated further, which the panel says. At
 * 1280x720 and 1440x900.
 */

const dir = workDir();

/** A money figure of the run panel: "$0.12" -> 0.12. */
const dollars = (text: string, after: string): number => {
  const match = new RegExp(`${after}\\s*\\$([0-9.]+)`).exec(text);
  if (!match) throw new Error(`no "${after} $…" in "${text}"`);
  return Number(match[1]);
};

for (const viewport of REVIEW_VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('the Overview scrolls to the window’s height; kept-first groups show resolved at once', async ({
      page,
      svc,
    }) => {
      // CommonsenseQA's first 80 rows: row 5 again at 41, row 10 again at 62.
      const rows = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 80);
      rows.splice(40, 0, { ...rows[4], id: 'copy-5' });
      rows.splice(61, 0, { ...rows[9], id: 'copy-10' });
      const path = await writeDataset(dir, `csqa_room_${viewport.width}`, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 82);
      await page.getByRole('tab', { name: 'Overview' }).click();
      const overview = page.getByTestId('overview');
      const groups = overview.getByTestId('duplicate-groups');
      // The groups come with the import's scan, which a loaded machine may still be running (the
      // whole suite failed here once at 1440x900 with "Duplicate groups (0)" after 5 s).
      await expect(groups).toContainText('Duplicate groups (2)', { timeout: 30_000 });
      await page.screenshot({ path: sizedScreenshot('overview-top', page) });

      // Scrolled down, the Overview fills the view: the header and the run panel scroll away.
      const view = page.locator('.dataset-view');
      await view.evaluate((element) => (element.scrollTop = element.scrollHeight));
      const room = await overview.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const frame = (element.closest('.dataset-view') as HTMLElement).getBoundingClientRect();
        return Math.min(box.bottom, frame.bottom) - Math.max(box.top, frame.top);
      });
      expect(room).toBeGreaterThan(viewport.height * 0.8);
      await expect(page.getByRole('tab', { name: 'Rows' })).toBeInViewport();
      await page.screenshot({ path: sizedScreenshot('overview-scrolled', page) });

      // One group kept first: it shows resolved, its button gone; the other keeps its own.
      const first = groups.getByTestId('duplicate-group').first();
      await first.getByRole('button', { name: 'Keep the first, drop the others' }).click();
      await expect(first).toContainText('resolved');
      await expect(first.getByRole('button')).toHaveCount(2); // the two rows' links
      await expect(
        groups.getByRole('button', { name: 'Keep the first, drop the others' }),
      ).toHaveCount(1);
      // The rest at once: every group resolved, no button left, while the list is still the scan's.
      await groups
        .getByRole('button', { name: 'Keep the first of each group, drop the others' })
        .click();
      await groups.getByRole('button', { name: 'Drop', exact: true }).click();
      await expect(groups.getByText('resolved: the first kept, the others dropped')).toHaveCount(2);
      await expect(groups.getByRole('button', { name: /Keep the first/ })).toHaveCount(0);
      await page.screenshot({ path: sizedScreenshot('overview-resolved', page) });
      // The rescan then takes them away.
      await expect(groups).toContainText('Duplicate groups (0)', { timeout: 15_000 });
      await expect(overview).toContainText('80 rows');
    });

    test('a run of several seconds is estimated quickly, its bound within 3x of its usage', async ({
      page,
      svc,
    }) => {
      test.setTimeout(180_000);
      // GSM8K's 300 rows, 50 times over: a refine of 15,000 rows. Several seconds on any machine:
      // 6,000 rows, once the engine was warmed before the server listens, were estimated (rightly)
      // under a second on a fast host, a short run.
      const rows = Array.from({ length: 50 }, () => readRows('gsm8k_test_first300.jsonl')).flat();
      const path = await writeDataset(dir, `gsm8k_x50_${viewport.width}`, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 15000);
      await page.getByLabel('Operation').selectOption({ label: 'Refine' });
      await page.getByRole('button', { name: 'Estimate' }).click();
      const estimate = page.getByTestId('estimate');
      await expect(estimate).toContainText('15,000 samples, usage about $', { timeout: 30_000 });
      const text = (await estimate.textContent()) ?? '';
      const expected = dollars(text, 'usage about');
      const bound = dollars(text, 'at most');
      expect(bound).toBeGreaterThanOrEqual(expected);
      await page.screenshot({ path: sizedScreenshot('estimate', page) });

      await page.getByRole('button', { name: 'Start refine' }).click();
      const status = page.getByTestId('run-status');
      await expect(status).toContainText('done', { timeout: 150_000 });
      const actual = dollars((await status.textContent()) ?? '', 'usage');
      expect(bound).toBeGreaterThanOrEqual(actual);
      expect(bound).toBeLessThanOrEqual(3 * actual);
      expect(actual / expected).toBeGreaterThan(0.5);
      expect(actual / expected).toBeLessThan(2);
      await page.screenshot({ path: sizedScreenshot('estimate-run-done', page) });
    });

    test('a short run is not estimated further, and the panel says so', async ({ page, svc }) => {
      // GSM8K's first 60 rows: far under the size a short run is known by.
      const rows = readRows('gsm8k_test_first300.jsonl').slice(0, 60);
      const path = await writeDataset(dir, `gsm8k_60_${viewport.width}`, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 60);
      await page.getByLabel('Operation').selectOption({ label: 'Refine' });
      await page.getByRole('button', { name: 'Estimate' }).click();
      const estimate = page.getByTestId('estimate');
      await expect(estimate).toContainText(
        '60 samples, a short run (about a second): not estimated further, start it. ' +
          'A first look at 6 rows: usage about $',
      );
      await expect(estimate).not.toContainText('at most');
      await expect(estimate).toBeInViewport();
      await page.screenshot({ path: sizedScreenshot('estimate-short-run', page) });
    });
  });
}
