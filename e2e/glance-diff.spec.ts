import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import { importThroughPicker, REVIEW_VIEWPORTS, sizedScreenshot } from './support/screens.ts';

/**
 * A one-space fix in a long text reads small (issue 25, item 4): unchanged
 * text folded around the change, the ORIGINAL / FIXED headers sticky and in
 * sight when the review opens, a narrow label column, a unified view on
 * demand that is remembered. At 1280x720 and 1440x900.
 */

const dir = workDir();

/** Thirty lines of prose, the twentieth with two spaces where one belongs. */
function longText(line: (i: number) => string): string {
  return Array.from({ length: 30 }, (_, i) =>
    i === 19 ? `Line ${i + 1} holds the  double space in the middle of it.` : line(i),
  ).join('\n');
}

for (const viewport of REVIEW_VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a one-space fix in a long text reads small, folded, headers in sight, unified on demand', async ({
      page,
      svc,
    }) => {
      const name = `long_text_one_space_${viewport.width}`;
      const text = longText((i) => `Line ${i + 1} of a long text, where nothing at all changes.`);
      const path = await writeDataset(dir, name, 'jsonl', [
        { text },
        { text: 'A short and clean second row of plain prose.' },
      ]);
      await importThroughPicker(page, svc.baseUrl, path, 2);
      await page.getByLabel('Operation').selectOption({ label: 'Refine' });
      await page.getByRole('button', { name: 'Start refine' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });

      await page.getByTestId('grid-row').first().click();
      const review = page.getByTestId('review');
      const diff = review.getByTestId('sample-diff');
      const fixed = diff.getByTestId('diff-after');
      // The change, with a few lines of context either side; the 25 other lines folded.
      await expect(fixed).toContainText('Line 20 holds the·double space');
      await expect(fixed).toContainText('Line 18 of a long text');
      await expect(fixed).toContainText('Line 22 of a long text');
      await expect(fixed).not.toContainText('Line 5 of a long text');
      await expect(fixed).not.toContainText('Line 28 of a long text');
      await expect(fixed.getByTestId('fold')).toHaveText([
        '… 17 unchanged lines',
        '… 8 unchanged lines',
      ]);
      await expect(diff.getByTestId('diff-before').getByTestId('fold')).toHaveCount(2);
      // Small: the element is a few lines high, not thirty.
      const folded = (await fixed.boundingBox())?.height ?? 0;
      expect(folded).toBeLessThan(240);
      // Opened at the top: the headers and the element's label in sight, the label column narrow.
      expect(await diff.evaluate((box) => box.scrollTop)).toBe(0);
      await expect(diff.getByRole('columnheader', { name: 'Original' })).toBeInViewport();
      await expect(diff.getByRole('columnheader', { name: 'Fixed' })).toBeInViewport();
      const label = diff.locator('tbody th.element-label').first();
      await expect(label).toHaveText(/text/i);
      await expect(label).toBeInViewport();
      expect((await label.boundingBox())?.width ?? 999).toBeLessThanOrEqual(70);
      // The review fits the window (at 1280x720 too): the actions, the whole diff box and the
      // change list in sight, and the review itself does not scroll (only the diff box will).
      for (const name of ['Accept fix', 'Reject', 'Edit', 'Drop']) {
        await expect(review.getByRole('button', { name, exact: true })).toBeInViewport({
          ratio: 1,
        });
      }
      await expect(diff).toBeInViewport({ ratio: 1 });
      await expect(review.locator('.change-list summary')).toBeInViewport({ ratio: 1 });
      await expect(review).toBeInViewport({ ratio: 1 });
      const scrolls = (locator: typeof review) =>
        locator.evaluate((element) => element.scrollHeight > element.clientHeight + 1);
      expect(await scrolls(review)).toBe(false);
      await page.screenshot({ path: sizedScreenshot('diff-folded', page) });

      // A fold opens on a click, on both sides at once.
      await fixed.getByTestId('fold').first().click();
      await expect(fixed).toContainText('Line 5 of a long text');
      await expect(diff.getByTestId('diff-before')).toContainText('Line 5 of a long text');
      await expect(fixed.getByTestId('fold')).toHaveCount(1);
      expect((await fixed.boundingBox())?.height ?? 0).toBeGreaterThan(2 * folded);
      // The long text scrolls in the diff's box, the one scroller: the review stays put.
      expect(await scrolls(diff)).toBe(true);
      expect(await scrolls(review)).toBe(false);
      // The headers and the element's label stay in sight while the long text scrolls under them,
      // nothing showing above the headers.
      await diff.evaluate((box) => (box.scrollTop = box.scrollHeight));
      await expect(diff.getByRole('columnheader', { name: 'Fixed' })).toBeInViewport();
      const header = await diff.getByRole('columnheader', { name: 'Fixed' }).boundingBox();
      const box = await diff.boundingBox();
      expect(Math.abs((header?.y ?? 0) - (box?.y ?? 0))).toBeLessThanOrEqual(1);
      await expect(label).toBeInViewport();
      const labelBox = await label.locator('.element-label-text').boundingBox();
      const headerBottom = (header?.y ?? 0) + (header?.height ?? 0);
      expect(labelBox?.y ?? 0).toBeGreaterThanOrEqual(headerBottom - 1);
      expect(labelBox?.y ?? 999).toBeLessThan(headerBottom + 12);
      expect(await review.evaluate((element) => element.scrollTop)).toBe(0);
      await page.screenshot({ path: sizedScreenshot('diff-fold-opened', page) });

      // Unified: one column, the removed and the added space in place; kept after a reload.
      await review.getByRole('radio', { name: 'Unified' }).check();
      const unified = diff.getByTestId('diff-unified');
      await expect(unified).toHaveCount(1);
      await expect(diff.getByTestId('diff-after')).toHaveCount(0);
      await expect(unified.locator('mark.removed')).toHaveText('··');
      await expect(unified.locator('mark.added')).toHaveText('·');
      // The fold opened above stays open in the other view.
      await expect(unified.getByTestId('fold')).toHaveText(['… 8 unchanged lines']);
      await page.screenshot({ path: sizedScreenshot('diff-unified', page) });
      await page.reload();
      await page.locator('.dataset-item', { hasText: name }).click();
      // The dataset opened whole (its last run read) and the row of its own text: a click on the
      // first row while the run's status still arrived once missed it (open-steady.spec.ts).
      await expect(page.getByTestId('run-status')).toContainText('done');
      await page.getByTestId('grid-row').filter({ hasText: 'Line 1 of a long text' }).click();
      await expect(
        page.getByTestId('review').getByRole('radio', { name: 'Unified' }),
      ).toBeChecked();
      await expect(page.getByTestId('sample-diff').getByTestId('diff-unified')).toHaveCount(1);
      await page.getByTestId('review').getByRole('radio', { name: 'Side by side' }).check();
    });

    test('a row holding a benchmark item shows its sample in sight, whole from its first element', async ({
      page,
      svc,
    }) => {
      // TruthfulQA is a benchmark the contamination check knows: the evidence card stands above
      // the sample. Its source and license (nine lines at 1280 px) once pushed the sample out of
      // sight; the sample's box must not open scrolled to its issue (choice A) either, which left
      // a sliver of the question above it (the walk at 1280x720).
      const name = `truthfulqa_in_sight_${viewport.width}`;
      const rows = readRows('truthfulqa_mc_task_first200.jsonl').slice(0, 4);
      const path = await writeDataset(dir, name, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 4);
      await page.getByLabel('Operation').selectOption({ label: 'Audit' });
      await page.getByRole('button', { name: 'Start audit' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
      await page.getByTestId('grid-row').first().click();
      const review = page.getByTestId('review');
      await expect(review.getByTestId('verdicts')).toContainText('benchmark_overlap');
      const source = review.getByTestId('benchmark-identity').locator('details');
      await expect(source).toContainText('truthfulqa');
      await expect(source).not.toHaveAttribute('open');
      const diff = review.getByTestId('sample-diff');
      await expect(diff.locator('td.located').first()).toBeVisible();
      await expect(diff).toBeInViewport({ ratio: 0.75 });
      // The box not scrolled: the question's row whole at its top, not a sliver.
      expect(await diff.evaluate((box) => box.scrollTop)).toBe(0);
      const cut = await diff.evaluate((box) => {
        const first = box.querySelector('tbody tr')?.getBoundingClientRect().top ?? 0;
        return box.getBoundingClientRect().top + box.clientTop - first;
      });
      expect(cut).toBeLessThanOrEqual(0.5);
      await page.screenshot({ path: sizedScreenshot('diff-in-sight', page) });
    });
  });
}
