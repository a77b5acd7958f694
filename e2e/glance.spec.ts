import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';

/**
 * A review that reads at a glance (issue 25): a search over every field of
 * the row or one field of it, undecided verdicts apart from passing ones, the
 * review's header and wording, and an export that says which columns it adds.
 * Each at 1280x720 and 1440x900.
 */

const screenshots = join(import.meta.dirname, 'screenshots');
const dir = workDir();
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;
const sized = (name: string, page: Page): string => {
  const size = page.viewportSize();
  return join(screenshots, `${name}-${size?.width}x${size?.height}.png`);
};

/**
 * A chat file of its own schema: 64 rows of `dialog` turns (`speaker`,
 * `utterance`) and a `meta` object; 63 rows of 2 turns, one of 4. The word
 * "accountant" is only ever said by the assistant; `meta.src` tells where a
 * row came from.
 */
export function chatRows(): Record<string, unknown>[] {
  return Array.from({ length: 64 }, (_, i) => ({
    dialog: [
      { speaker: 'user', utterance: `How should I file my taxes for year ${2000 + i}?` },
      {
        speaker: 'assistant',
        utterance:
          i % 8 === 3
            ? 'You should ask an accountant about that year.'
            : `Fill in form ${i} and keep the receipts.`,
      },
      ...(i === 10
        ? [
            { speaker: 'user', utterance: 'Thanks, and after that?' },
            { speaker: 'assistant', utterance: 'Keep a copy of everything you send.' },
          ]
        : []),
    ],
    meta: { src: i % 16 === 0 ? 'forum-scrape' : 'handwritten', id: `chat-${i}` },
  }));
}

async function importFile(page: Page, baseUrl: string, path: string, rows: number) {
  await page.goto(`${baseUrl}/#/datasets`);
  await page.getByTestId('file-picker').setInputFiles(path);
  await page.getByTestId('import-dialog').getByRole('button', { name: 'Import' }).click();
  await expect(page.getByTestId('row-count')).toHaveText(`${rows} rows`);
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a search finds words in assistant turns and metadata, and can keep to one field', async ({
      page,
      svc,
    }) => {
      const path = await writeDataset(dir, `chat-${viewport.width}`, 'jsonl', chatRows());
      await importFile(page, svc.baseUrl, path, 64);
      const search = page.getByLabel('Search', { exact: true });
      const count = page.getByTestId('row-count');

      // Said only by the assistant: the 8 rows where it is, and none other.
      await search.fill('accountant');
      await search.press('Enter');
      await expect(count).toHaveText('8 rows');
      await expect(page.getByTestId('grid-row').first()).toContainText('year 2003');
      await page.screenshot({ path: sized('search-assistant-turn', page) });

      // An unmapped metadata field.
      await search.fill('forum-scrape');
      await search.press('Enter');
      await expect(count).toHaveText('4 rows');
      await expect(page.getByTestId('grid-row').first()).toContainText('year 2000');

      // Kept to one field: "year" is in every user turn, never in `meta.src`.
      await search.fill('year');
      await search.press('Enter');
      await expect(count).toHaveText('64 rows');
      const field = page.getByLabel('Search in');
      await expect(field.locator('option')).toContainText([
        'in every field',
        'in dialog',
        'in dialog.speaker',
        'in dialog.utterance',
        'in meta',
        'in meta.src',
        'in meta.id',
      ]);
      await field.selectOption('meta.src');
      await expect(count).toHaveText('0 rows');
      await search.fill('handwritten');
      await search.press('Enter');
      await expect(count).toHaveText('60 rows');
      await field.selectOption('dialog.utterance');
      await expect(count).toHaveText('0 rows');
      await page.screenshot({ path: sized('search-one-field', page) });
    });

    test('an undecided label reads undecided, apart from passing, in the review, the grid and the Overview', async ({
      page,
      svc,
    }) => {
      const path = await writeDataset(
        dir,
        `hellaswag-${viewport.width}`,
        'jsonl',
        readRows('hellaswag_val_sample200.jsonl').slice(0, 12),
      );
      await importFile(page, svc.baseUrl, path, 12);
      await page.getByLabel('Operation').selectOption({ label: 'Audit' });
      await page.getByRole('button', { name: 'Start audit' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });

      // The grid: a row no check failed, whose label nobody could verify, is not "passed".
      const first = page.getByTestId('grid-row').first();
      await expect(first.locator('.badge.undecided')).toHaveText('undecided');
      await expect(first.locator('.badge.ok', { hasText: 'passed' })).toHaveCount(0);

      // The review: label_correct on a line of its own, in its own colour, not among the passes.
      await first.click();
      const verdicts = page.getByTestId('verdicts');
      const undecided = verdicts.getByTestId('undecided-checks');
      await expect(undecided).toContainText('1 check undecided: label_correct');
      await expect(verdicts.locator('details.passing-checks')).not.toContainText('label_correct');
      await expect(undecided).toHaveCSS('color', 'rgb(106, 63, 181)');
      await undecided.locator('summary').click();
      await expect(undecided.locator('.badge.undecided')).toContainText('undecided 0.50');
      await page.screenshot({ path: sized('review-undecided', page) });
      await page.keyboard.press('Escape');

      // The Overview counts those rows apart, and a click shows them.
      await page.getByRole('tab', { name: 'Overview' }).click();
      const rows = page.getByTestId('undecided-rows');
      await expect(rows).toContainText('12 rows undecided');
      await page.screenshot({ path: sized('overview-undecided', page) });
      await rows.getByRole('button').click();
      await expect(page.getByTestId('row-count')).toHaveText('12 rows');
    });
  });
}
