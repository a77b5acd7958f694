import { expect, test } from './fixtures.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';
import {
  exportAs,
  importThroughPicker,
  REVIEW_VIEWPORTS,
  sizedScreenshot,
} from './support/screens.ts';

/**
 * A review that reads at a glance (issue 25): a search over every field of
 * the row or one field of it, undecided verdicts apart from passing ones, the
 * review's header and wording, and an export that says which columns it adds.
 * Each at 1280x720 and 1440x900.
 */

const dir = workDir();

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

for (const viewport of REVIEW_VIEWPORTS) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test('a search finds words in assistant turns and metadata, and can keep to one field', async ({
      page,
      svc,
    }) => {
      const path = await writeDataset(dir, `chat-${viewport.width}`, 'jsonl', chatRows());
      await importThroughPicker(page, svc.baseUrl, path, 64);
      const search = page.getByLabel('Search', { exact: true });
      const count = page.getByTestId('row-count');

      // Said only by the assistant: the 8 rows where it is, and none other.
      await search.fill('accountant');
      await search.press('Enter');
      await expect(count).toHaveText('8 rows');
      await expect(page.getByTestId('grid-row').first()).toContainText('year 2003');
      await page.screenshot({ path: sizedScreenshot('search-assistant-turn', page) });

      // An unmapped metadata field.
      await search.fill('forum-scrape');
      await search.press('Enter');
      await expect(count).toHaveText('4 rows');
      await expect(page.getByTestId('grid-row').first()).toContainText('year 2000');

      // Kept to one field: "year" is in every user turn, never in `meta.src`.
      await search.fill('year');
      await search.press('Enter');
      await expect(count).toHaveText('64 rows');
      const field = page.getByLabel('Which field to look in');
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
      await page.screenshot({ path: sizedScreenshot('search-one-field', page) });
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
      await importThroughPicker(page, svc.baseUrl, path, 12);
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
      // Why, in the line itself: not a fault of the row.
      await expect(undecided.getByTestId('undecided-why')).toHaveText(
        ' · not checkable without a model',
      );
      await expect(verdicts.locator('details.passing-checks')).not.toContainText('label_correct');
      await expect(undecided).toHaveCSS('color', 'rgb(106, 63, 181)');
      await undecided.locator('summary').click();
      await expect(undecided.locator('.badge.undecided')).toContainText('undecided 0.50');
      await page.screenshot({ path: sizedScreenshot('review-undecided', page) });
      await page.keyboard.press('Escape');

      // The Overview counts those rows apart, and a click shows them.
      await page.getByRole('tab', { name: 'Overview' }).click();
      const rows = page.getByTestId('undecided-rows');
      await expect(rows).toContainText('12 rows undecided');
      await expect(rows).toContainText('not checkable without a model');
      await page.screenshot({ path: sizedScreenshot('overview-undecided', page) });
      await rows.getByRole('button').click();
      await expect(page.getByTestId('row-count')).toHaveText('12 rows');
    });

    test('Settings: every input inside its card, the rates whole', async ({ page, svc }) => {
      await page.goto(`${svc.baseUrl}/#/settings`);
      const inputs = page.locator('main input:visible, main select:visible');
      await expect(inputs.first()).toBeVisible();
      await page.screenshot({ path: sizedScreenshot('settings', page), fullPage: true });
      // Each input's box lies inside the card (or section) that holds it.
      const outside = await inputs.evaluateAll((elements) =>
        elements
          .map((element) => {
            const card = element.closest('.card, section, .panel') ?? element.parentElement;
            const box = element.getBoundingClientRect();
            const within = card?.getBoundingClientRect();
            return within && (box.right > within.right + 0.5 || box.left < within.left - 0.5)
              ? (element.getAttribute('aria-label') ?? element.id)
              : null;
          })
          .filter((label) => label !== null),
      );
      expect(outside).toEqual([]);
      // A rate's whole value fits its field: no text scrolled out of sight.
      const rate = page.getByLabel('svc-audit-1 input rate');
      const clipped = await rate.evaluate(
        (input: HTMLInputElement) => input.scrollWidth > input.clientWidth,
      );
      expect(clipped).toBe(false);
    });

    test('the review header and its wording: decided rows, turns named whole, counts, a reload', async ({
      page,
      svc,
    }) => {
      // A chat whose turns repeat their lines, one with mojibake (a fix), and a row that lacks a turn's text.
      const repeated = (who: string) =>
        `${Array.from({ length: 4 }, () => `${who} says this very same line again.`).join('\n')}\nAnd then something else entirely.`;
      const rows = [
        {
          dialog: [
            { speaker: 'user', utterance: repeated('The user') },
            {
              speaker: 'assistant',
              utterance: `${repeated('The assistant')}\nIt\u00e2\u0080\u0099s done.`,
            },
          ],
        },
        {
          dialog: [
            { speaker: 'user', utterance: 'Is it finished?' },
            { speaker: 'assistant', utterance: 'It\u00e2\u0080\u0099s finished.' },
          ],
        },
        ...chatRows().slice(0, 4),
        { dialog: [{ speaker: 'user', utterance: 'Hi' }, { speaker: 'assistant' }] },
      ];
      const path = await writeDataset(
        dir,
        `truthfulqa_mc_task_first200_chat_${viewport.width}`,
        'jsonl',
        rows,
      );
      await importThroughPicker(page, svc.baseUrl, path, 6);
      // The row the import skipped says its turn's text is missing, in words.
      await page.getByTestId('skipped-rows').click();
      const report = page.getByTestId('import-report');
      await expect(report).toContainText('(the content) must be text, but it is missing');
      await expect(report).not.toContainText('undefined');
      await report.getByRole('button', { name: 'Close' }).click();

      // A name wraps where its words end, never mid-word.
      const name = page.locator('.dataset-item .dataset-name').first();
      const breaks = await name.evaluate((element) => {
        const text = element.textContent;
        const ends: string[] = [];
        let top: number | null = null;
        let offset = 0;
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < (node.textContent ?? '').length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const y = range.getBoundingClientRect().top;
            if (top !== null && y > top + 2) ends.push(text.charAt(offset + i - 1));
            top = y;
          }
          offset += (node.textContent ?? '').length;
        }
        return ends;
      });
      expect(breaks.length).toBeGreaterThan(0);
      for (const end of breaks) expect('_-./').toContain(end);

      await page.getByLabel('Operation').selectOption({ label: 'Refine' });
      await page.getByRole('button', { name: 'Start refine' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });

      await page.getByTestId('grid-row').first().click();
      const review = page.getByTestId('review');
      const verdicts = review.getByTestId('verdicts');
      // Two repeated_lines issues, each naming its turn.
      await expect(verdicts).toContainText('repeated_lines in turn 1:');
      await expect(verdicts).toContainText('repeated_lines in turn 2:');
      // The turn's label whole: "turn 2" over "assistant", not cut.
      const label = review.getByTestId('sample-diff').locator('th.element-label').nth(1);
      await expect(label).toHaveText(/turn 2\s*assistant/i);
      expect(await label.evaluate((th) => th.scrollWidth <= th.clientWidth)).toBe(true);
      await expect(review.locator('.change-list summary')).toHaveText(/^3 changes \(JSON Patch\)$/);
      await page.getByTestId('grid-row').nth(1).click();
      await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
      await expect(review.locator('.change-list summary')).toHaveText(/^1 change \(JSON Patch\)$/);
      await page.getByTestId('grid-row').first().click();

      // Pending: Accept fix, Reject, Edit, Drop and the × all on the header's one line.
      const middle = (box: { y: number; height: number } | null) =>
        (box?.y ?? 0) + (box?.height ?? 0) / 2;
      const headingMiddle = middle(
        await review.getByRole('heading', { name: 'Row 1' }).boundingBox(),
      );
      for (const name of ['Accept fix', 'Reject', 'Edit', 'Drop', 'Close the review']) {
        const box = await review.getByRole('button', { name, exact: true }).boundingBox();
        expect(Math.abs(middle(box) - headingMiddle), name).toBeLessThan(8);
      }
      await page.screenshot({ path: sizedScreenshot('review-pending', page) });

      // Accepted: the decision and its Undo, no "Accept fix" beside them; the × on the header's line.
      await review.getByRole('button', { name: 'Accept fix' }).click();
      // Accepting moves on to the next row once the decision is stored: back to row 1 after that.
      await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
      await page.getByTestId('grid-row').first().click();
      await expect(review.getByRole('heading', { name: 'Row 1' })).toBeVisible();
      await expect(review.getByTestId('review-state')).toHaveText('accepted');
      await expect(review.getByRole('button', { name: 'Undo accept' })).toBeVisible();
      await expect(review.getByRole('button', { name: /Accept/ })).toHaveCount(0);
      await expect(review.getByRole('button', { name: 'Reject' })).toHaveCount(0);
      const heading = await review.getByRole('heading', { name: 'Row 1' }).boundingBox();
      const close = await review.getByRole('button', { name: 'Close the review' }).boundingBox();
      expect(
        Math.abs(
          (close?.y ?? 0) +
            (close?.height ?? 0) / 2 -
            ((heading?.y ?? 0) + (heading?.height ?? 0) / 2),
        ),
      ).toBeLessThan(8);
      await page.screenshot({ path: sizedScreenshot('review-accepted', page) });

      // After a reload the run panel offers the operation its status names.
      await page.reload();
      await page
        .locator('.dataset-item', { hasText: `truthfulqa_mc_task_first200_chat_${viewport.width}` })
        .click();
      await expect(page.getByTestId('run-status')).toContainText('refine');
      await expect(page.getByRole('button', { name: 'Start refine' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Start audit' })).toHaveCount(0);
      // One line beside the dataset list, at 1280 px too: the Start button level with the
      // operation (both number fields are always shown, the unused one greyed).
      const centre = async (box: Promise<{ y: number; height: number } | null>) => {
        const b = await box;
        return (b?.y ?? 0) + (b?.height ?? 0) / 2;
      };
      const start = await centre(page.getByRole('button', { name: 'Start refine' }).boundingBox());
      const operation = await centre(page.getByLabel('Operation').boundingBox());
      expect(Math.abs(start - operation)).toBeLessThan(6);
      await page.screenshot({ path: sizedScreenshot('run-panel-reloaded', page) });
    });

    test('a tweet’s hashtags are words, not noise', async ({ page, svc }) => {
      const tweet =
        'Spent the whole weekend hiking the ridge trail with friends and the views were unreal. ' +
        'We started before sunrise, watched the fog lift over the valley, and ate lunch by the lake. ' +
        'Already planning the next trip for the autumn colours. ' +
        '#hiking #outdoors #nature #weekend #mountains #sunrise #friends #travel #autumn #2024 #lakeview #trailrunning';
      const path = await writeDataset(dir, `tweets-${viewport.width}`, 'jsonl', [
        { text: tweet },
        { text: `${tweet} #again` },
      ]);
      await importThroughPicker(page, svc.baseUrl, path, 2);
      await page.getByRole('button', { name: 'Start audit' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
      await page.getByTestId('grid-row').first().click();
      const verdicts = page.getByTestId('verdicts');
      await expect(verdicts).toBeVisible();
      await expect(verdicts).not.toContainText('not_natural_language');
      await page.screenshot({ path: sizedScreenshot('tweet-hashtags', page) });
    });

    test('an export that must add columns says which; JSON Lines adds none', async ({
      page,
      svc,
    }) => {
      const rows = readRows('ftfy_mojibake_cases.jsonl');
      const holding = (key: string) => rows.filter((row) => key in row).length;
      const path = await writeDataset(dir, `ftfy-${viewport.width}`, 'jsonl', rows);
      await page.goto(`${svc.baseUrl}/#/datasets`);
      await page.getByTestId('file-picker').setInputFiles(path);
      const dialog = page.getByTestId('import-dialog');
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(page.getByTestId('row-count')).toHaveText(`${rows.length} rows`);

      const format = page.getByLabel('Export format');
      const added = page.getByTestId('export-added-columns');
      await expect(added).toHaveCount(0); // JSONL: nothing to add
      await format.selectOption('csv');
      await expect(added).toContainText(
        `CSV has one set of columns: adds comment (in ${holding('comment')} of ${rows.length} rows), fixed-encoding (in ${holding('fixed-encoding')} of ${rows.length} rows) to the other rows, empty.`,
      );
      await page.screenshot({ path: sizedScreenshot('export-added-columns', page) });
      await format.selectOption('parquet');
      await expect(added).toContainText('Parquet has one set of columns');
      await expect(added).toContainText('null');
      await format.selectOption('json');
      await expect(added).toHaveCount(0);

      // The JSON Lines export writes each row's own keys, no column added.
      const exported = (await exportAs(page, 'jsonl'))
        .toString('utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => Object.keys(JSON.parse(line) as Record<string, unknown>));
      expect(exported).toEqual(rows.map((row) => Object.keys(row)));
      // The line it leaves names its format: picking CSV next does not make it the CSV's size.
      const result = page.getByTestId('export-result');
      await expect(result).toHaveText(
        new RegExp(`^JSONL exported: ${rows.length} rows, \\d+ (KiB|bytes)$`),
      );
      await format.selectOption('csv');
      await expect(result).toContainText('JSONL exported:');
      await page.screenshot({ path: sizedScreenshot('export-result-named', page) });
    });

    test('a file read by its shape lists its own fields, not the keys inside them', async ({
      page,
      svc,
    }) => {
      const rows = readRows('truthfulqa_mc_task_first200.jsonl').slice(0, 40);
      const path = await writeDataset(dir, `truthfulqa-${viewport.width}`, 'jsonl', rows);
      await page.goto(`${svc.baseUrl}/#/datasets`);
      await page.getByTestId('file-picker').setInputFiles(path);
      const dialog = page.getByTestId('import-dialog');
      await expect(dialog.getByTestId('mapped-preview')).toBeVisible();
      // Read by the shape: no "text ← question" mapping offered as if it were the reading.
      const mapping = dialog.getByTestId('mapping');
      await expect(mapping.getByTestId('shape-reader')).toContainText(
        'TruthfulQA rows are read by their shape',
      );
      await expect(mapping.getByLabel('Task type')).toHaveValue('');
      await expect(mapping.getByRole('textbox')).toHaveCount(0);
      // The preview shows the multiple-choice sample: four choices of the first row, A labelled.
      await expect(dialog.getByTestId('mapped-preview')).toContainText(
        'Nothing in particular happens when you eat a pomegranate.',
      );
      await page.screenshot({ path: sizedScreenshot('preview-truthfulqa', page) });
      // Mapping by hand instead: the file's fields are its three keys, not every answer string.
      await mapping.getByLabel('Task type').selectOption('multiple_choice');
      await expect(dialog.getByTestId('mapping')).toContainText("The file's fields (3)");
    });

    test('the Overview: length axes with a unit and labels apart, a check’s name filters', async ({
      page,
      svc,
    }) => {
      // The chat file with its first row copied at the end: `duplicates` fails (the file's other
      // look-alike rows are template siblings, which fail nothing).
      const rows = [...chatRows(), chatRows()[0]!];
      const path = await writeDataset(dir, `chat-overview-${viewport.width}`, 'jsonl', rows);
      await importThroughPicker(page, svc.baseUrl, path, 65);
      await page.getByRole('button', { name: 'Start audit' }).click();
      await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
      await page.getByRole('tab', { name: 'Overview' }).click();
      const overview = page.getByTestId('overview');
      const lengths = overview.locator('.histograms figure');
      // The histograms come with the scan, which a loaded machine may still be running.
      await expect(lengths.first()).toBeVisible({ timeout: 30_000 });
      await lengths.first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: sizedScreenshot('overview-lengths', page) });
      for (const figure of await lengths.all()) {
        await expect(figure.locator('text.axis-title')).toHaveText(
          /^(characters|turns) \(log scale: each bin doubles\)$/,
        );
        // No two labels under the columns overlap.
        const boxes = await figure
          .locator('text.axis:not(.axis-title)')
          .evaluateAll((texts) =>
            texts.map((t) => t.getBoundingClientRect()).map((r) => [r.left, r.right]),
          );
        for (let i = 1; i < boxes.length; i++) {
          expect(boxes[i]?.[0] ?? 0).toBeGreaterThanOrEqual(boxes[i - 1]?.[1] ?? 0);
        }
      }

      // The check's name, not only its thin bar, shows its rows.
      const checks = overview.getByRole('list', { name: 'Failures and warnings per check' });
      const name = checks.locator('button.tally-name').first();
      const check = (await name.textContent()) ?? '';
      await name.click();
      await expect(page.getByTestId('row-count')).not.toHaveText('65 rows');
      const failed = await page.getByLabel('Failed check').inputValue();
      const warned = page.getByTestId('warned-check-filter');
      expect(failed === check || (await warned.textContent())?.includes(check)).toBe(true);
    });
  });
}
