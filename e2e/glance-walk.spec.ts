import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import { importThroughPicker, REVIEW_VIEWPORTS, sizedScreenshot } from './support/screens.ts';

/**
 * What the walk of issue 25 found (e2e/walk.spec.ts): a chat whose speakers
 * are no chat roles imported without a word, then failed `roles` in every
 * row; and the Overview's "90% under 2" where no conversation has fewer than
 * two turns; the bulk actions broken over two lines beside an open review;
 * a benchmark's commit hash cut at the edge of its evidence; "0 rows" and "No
 * rows match." over a dataset whose rows were still being read. At 1280x720
 * and 1440x900.
 */

const dir = workDir();

/** 64 chats between a visitor and a guide: 63 of 2 turns, one of 4. */
const harbourChats = (): Record<string, unknown>[] =>
  Array.from({ length: 64 }, (_, i) => ({
    dialog: [
      { speaker: 'visitor', utterance: `What is a good name for boat number ${i}?` },
      { speaker: 'guide', utterance: `Call boat ${i} "Wave ${i}", short and easy to shout.` },
      ...(i === 21
        ? [
            { speaker: 'visitor', utterance: 'And a name for its dinghy?' },
            { speaker: 'guide', utterance: 'Name it after the boat, with "Little" in front.' },
          ]
        : []),
    ],
    meta: { src: 'chat-export', lang: 'en' },
  }));

for (const viewport of REVIEW_VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('speakers that are no role are said at the mapping step, and read as user and assistant in one click', async ({
      page,
      svc,
    }) => {
      const path = await writeDataset(dir, `harbour-${viewport.width}`, 'jsonl', harbourChats());
      await page.goto(`${svc.baseUrl}/#/datasets`);
      await page.getByTestId('file-picker').setInputFiles(path);
      const dialog = page.getByTestId('import-dialog');
      const preview = dialog.getByTestId('mapped-preview');
      await expect(preview).toContainText('visitor:');

      const note = dialog.getByTestId('unknown-roles');
      await expect(note).toContainText(
        'The roles “visitor”, “guide” of the turns are not system, user or assistant: as they are, every such turn fails roles.',
      );
      await expect(note).toContainText('visitor:user,guide:assistant');
      await expect(note).toBeInViewport();
      await page.screenshot({ path: sizedScreenshot('mapping-unknown-roles', page) });

      await note.getByRole('button', { name: 'Read visitor as user, guide as assistant' }).click();
      await expect(note).toHaveCount(0);
      await expect(
        dialog.getByTestId('mapping').getByLabel('Role roles', { exact: true }),
      ).toHaveValue(/(^|,)visitor:user,guide:assistant$/);
      const firstRow = preview.locator('tbody tr').first();
      await expect(firstRow).toContainText('user: What is a good name for boat number 0?');
      await expect(firstRow).toContainText('assistant: Call boat 0');
      await expect(preview).not.toContainText('visitor:');
      await page.screenshot({ path: sizedScreenshot('mapping-roles-named', page) });

      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(page.getByTestId('row-count')).toHaveText('64 rows');
      await expect(page.getByTestId('dataset-mapping')).toContainText(
        'visitor→user, guide→assistant',
      );
      await page.getByRole('button', { name: 'Start audit' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
      await page.getByRole('tab', { name: 'Overview' }).click();
      const overview = page.getByTestId('overview');
      // The dataset checks come with the scan, which a loaded machine may still be running.
      await expect(overview).toContainText('64 rows · dataset checks', { timeout: 30_000 });
      await expect(overview).not.toContainText('roles fails');
      await expect(overview.getByText('invalid_role')).toHaveCount(0);

      // 63 conversations of 2 turns, 1 of 4: 90% have at most 2 turns, none fewer.
      const turns = overview.locator('.histograms figcaption', {
        hasText: 'turns per conversation',
      });
      await expect(turns).toBeVisible({ timeout: 30_000 });
      await expect(turns).toHaveText('turns per conversation median 2, 90% at most 2, max 4');
      await turns.scrollIntoViewIfNeeded();
      await page.screenshot({ path: sizedScreenshot('overview-turns-at-most', page) });

      // A row every check passes: its review shows the folded line, not a table of no rows.
      await page.getByRole('tab', { name: 'Rows' }).click();
      await page
        .getByTestId('grid-row')
        .filter({ has: page.locator('.badge.ok', { hasText: 'passed' }) })
        .first()
        .click();
      const verdicts = page.getByTestId('verdicts');
      const passing = verdicts.locator('details.passing-checks');
      await expect(passing.locator('summary')).toContainText(/^\d+ checks pass: /);
      await expect(verdicts.getByRole('columnheader')).toHaveCount(0);
      await page.screenshot({ path: sizedScreenshot('review-all-pass', page) });
      // Opened, the checks come under their columns' names.
      // Beside the open review, the bulk actions keep to one line, whichever line that is.
      const middles = await Promise.all(
        ['Accept all shown', 'Reject all shown', 'Drop all shown'].map(async (name) => {
          const box = await page.getByRole('button', { name, exact: true }).boundingBox();
          return (box?.y ?? 0) + (box?.height ?? 0) / 2;
        }),
      );
      expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(6);
      await passing.locator('summary').click();
      await expect(passing.getByRole('columnheader', { name: 'Check' })).toBeVisible();
      await expect(passing.getByRole('row')).toHaveCount(
        1 + Number(/^(\d+)/.exec(await passing.locator('summary').innerText())?.[1]),
      );
    });

    test('a benchmark’s source, commit hash and all, wraps inside the row’s evidence', async ({
      page,
      svc,
    }) => {
      const rows = readRows('truthfulqa_mc_task_first200.jsonl').slice(0, 12);
      const path = await writeDataset(dir, `truthfulqa-evidence-${viewport.width}`, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 12);
      await page.getByRole('button', { name: 'Start audit' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
      await page.getByTestId('grid-row').first().click();
      const identity = page.getByTestId('review').getByTestId('benchmark-identity').first();
      // The row's evidence comes with its audited row, read after the run's end: on a loaded
      // machine (CI's second, no-../shared pass) that took more than the default 5 s once.
      await expect(identity).toContainText('truthfulqa', { timeout: 15_000 });
      // Its card folds (these rows only warn: the file is TruthfulQA itself), and the source
      // under the item's identity (it pushed the row's sample out of sight): both opened here.
      await page.getByTestId('review').getByTestId('overlap-head').first().click();
      await identity.locator('summary').click();
      await expect(identity.locator('details')).toHaveAttribute('open');
      await identity.scrollIntoViewIfNeeded();
      await page.screenshot({ path: sizedScreenshot('evidence-source-wrapped', page) });
      // Nothing of it scrolled out of its column: every line inside the figure's width.
      const figure = identity.locator('xpath=ancestor::figure[1]');
      expect(await figure.evaluate((f) => f.scrollWidth <= f.clientWidth)).toBe(true);
    });

    test('a dataset opened counts its rows, not "No rows match", while its first rows are read', async ({
      page,
      svc,
    }) => {
      const gsm = readRows('gsm8k_test_first300.jsonl');
      const first = await writeDataset(
        dir,
        `opened-a-${viewport.width}`,
        'jsonl',
        gsm.slice(0, 12),
      );
      const second = await writeDataset(
        dir,
        `opened-b-${viewport.width}`,
        'jsonl',
        gsm.slice(12, 32),
      );
      await importThroughPicker(page, svc.baseUrl, first, 12);
      await page.getByTestId('file-picker').setInputFiles(second);
      await page
        .getByTestId('import-dialog')
        .getByRole('button', { name: 'Import', exact: true })
        .click();
      await expect(page.getByTestId('row-count')).toHaveText('20 rows');

      // The grid's reads wait until the count shown meanwhile has been looked at.
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/owner/datasetRows', async (route) => {
        await held;
        await route.continue();
      });
      await page.locator('.dataset-item', { hasText: `opened-a-${viewport.width}` }).click();
      await expect(page.getByTestId('row-count')).toHaveText('12 rows');
      await expect(page.getByText('No rows match.')).toHaveCount(0);
      // Places held for the rows being read, none a row to open yet.
      await expect(page.getByTestId('grid-row-loading').first()).toHaveText('loading…');
      await expect(page.getByTestId('grid-row')).toHaveCount(0);
      await page.screenshot({ path: sizedScreenshot('dataset-opening', page) });
      release();
      await expect(page.getByTestId('grid-row')).toHaveCount(12);
      await expect(page.getByTestId('grid-row').first()).toContainText('Janet');
    });
  });
}
