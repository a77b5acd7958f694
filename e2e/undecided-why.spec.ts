import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import { importThroughPicker, REVIEW_VIEWPORTS, sizedScreenshot } from './support/screens.ts';

/**
 * GSM8K refined on the builtin engine: every row's answer_correct is
 * undecided, since the engine verifies an answer only when it computes it
 * itself (a word problem it cannot), and none of these solutions contradicts
 * its own final line. The review and the Overview say so plainly ("not
 * checkable without a model"), so that a pile of undecided rows does not
 * read as a pile of faults (issue 25).
 */

const dir = workDir();

for (const viewport of REVIEW_VIEWPORTS) {
  test(`at ${viewport.width}x${viewport.height}: GSM8K's undecided answers say why`, async ({
    page,
    svc,
  }) => {
    await page.setViewportSize(viewport);
    const rows = readRows('gsm8k_test_first300.jsonl').slice(0, 20);
    const path = await writeDataset(dir, `gsm8k-why-${viewport.width}`, 'jsonl', rows);
    await importThroughPicker(page, svc.baseUrl, path, 20);
    await page.getByLabel('Operation').selectOption({ label: 'Refine' });
    await page.getByRole('button', { name: 'Start refine' }).click();
    await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });

    await page.getByTestId('grid-row').filter({ hasText: 'Janet' }).click();
    const undecided = page.getByTestId('verdicts').getByTestId('undecided-checks');
    await expect(undecided).toContainText(
      '1 check undecided: answer_correct · not checkable without a model',
    );
    await undecided.locator('summary').click();
    await expect(undecided.locator('.undecided-why')).toContainText(
      'the builtin engine verifies one only when it computes it itself',
    );
    await expect(undecided.locator('.undecided-why')).toBeInViewport();
    await page.screenshot({ path: sizedScreenshot('gsm8k-undecided-why', page) });
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Overview' }).click();
    const overview = page.getByTestId('undecided-rows');
    await expect(overview).toContainText('20 rows undecided');
    await expect(overview).toContainText('not checkable without a model');
  });
}
