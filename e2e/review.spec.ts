import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { dropFile, exportAs, importThroughPicker } from './support/screens.ts';
import { readRows, workDir, writeDataset } from './support/datasets.ts';

/**
 * A review a person can act on: the verdict in view, the issue located, the
 * fix as a structured diff, edit and drop, every decision one key away.
 */

const screenshots = join(import.meta.dirname, 'screenshots');
const dir = workDir();

/** CommonsenseQA's first rows: 0 with a duplicate choice (labelled), 2 with mojibake in the question. */
async function csqaWithDefects(): Promise<{ path: string; rows: Record<string, unknown>[] }> {
  const rows = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 6);
  const first = rows[0] as { choices: { label: string[]; text: string[] }; answerKey: string };
  const text = [...first.choices.text];
  text[3] = text[1] as string; // D repeats B
  rows[0] = { ...first, choices: { label: first.choices.label, text } };
  rows[2] = { ...rows[2], question: String(rows[2]?.question).replace(/ /, ' caf\u00c3\u00a9 ') };
  return { path: await writeDataset(dir, 'csqa-review', 'jsonl', rows), rows };
}

async function importAndRefine(page: Page, baseUrl: string, path: string, rows: number) {
  await importThroughPicker(page, baseUrl, path, rows);
  await page.getByLabel('Operation').selectOption({ label: 'Refine' });
  await page.getByRole('button', { name: 'Start refine' }).click();
  await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
}

test.describe('the review', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('by keyboard: the verdict in view, the choices diffed, accept, drop, edit, keys, export', async ({
    page,
    svc,
  }) => {
    const { path, rows } = await csqaWithDefects();
    await importAndRefine(page, svc.baseUrl, path, rows.length);

    // A row takes the focus; Enter opens its review.
    await page.getByTestId('grid-row').first().focus();
    await page.keyboard.press('Enter');
    const review = page.getByTestId('review');
    await expect(review.getByRole('heading', { name: 'Row 1' })).toBeVisible();
    // The failing check and its issue, in view without scrolling, the passing ones folded.
    const verdicts = review.getByTestId('verdicts');
    await expect(verdicts).toContainText('duplicate_choice');
    await expect(verdicts).toContainText('choice D repeats choice B');
    await expect(verdicts.getByText('duplicate_choice').first()).toBeInViewport();
    await expect(verdicts.locator('details.passing-checks')).toContainText('pass');
    // The fix as a list of choices: D dropped, the label mark on both sides.
    const diff = review.getByTestId('sample-diff');
    await expect(diff).toContainText('dropped');
    await expect(diff.getByLabel('labelled answer')).toHaveCount(2);
    await expect(diff.locator('td.located').first()).toBeVisible();
    await page.screenshot({ path: join(screenshots, 'review-choices-1280x720.png') });

    // a: accept, and on to the next row of the filter.
    await page.keyboard.press('a');
    await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
    await expect(page.getByTestId('grid-row').first()).toContainText('accepted');

    // d: drop row 2, and on to row 3 (the mojibake, with its characters highlighted).
    await page.keyboard.press('d');
    await expect(review.getByRole('heading', { name: 'Row 3' })).toBeVisible();
    await expect(page.getByTestId('grid-row').nth(1)).toContainText('dropped');
    await expect(review.locator('mark.issue-span').first()).toBeVisible();

    // e: edit row 3 by hand (the question), save: re-audited, the edit pending, a accepts it.
    await page.keyboard.press('e');
    const form = review.getByTestId('edit-form');
    const question = form.getByLabel('Edit context');
    // The edit builds on the fix the review suggests: the mojibake already repaired.
    await expect(form.getByTestId('edit-from')).toHaveText('Edits the suggested fix.');
    await expect(question).toHaveValue(/ café /);
    await page.screenshot({ path: join(screenshots, 'review-edit-form-1280x720.png') });
    await question.fill('A hand-written question about a cafe?');
    // Esc with the change unsaved asks first, whether the focus is in the form or not.
    await page.keyboard.press('Escape');
    await expect(form.getByTestId('edit-discard')).toContainText('Esc again discards them');
    await expect(question).toHaveValue('A hand-written question about a cafe?');
    await review.getByRole('heading', { name: 'Row 3' }).click();
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    // Discarded: opened again, the form holds the suggested fix; Esc closes it unchanged at once.
    await page.keyboard.press('e');
    await expect(question).toHaveValue(/ café /);
    await question.press('Escape');
    await expect(form).toBeHidden();
    await page.keyboard.press('e');
    await question.fill('A hand-written question about a cafe?');
    // Another row opened with the change unsaved asks first too: the row and the change stay.
    await page.getByTestId('grid-row').nth(3).click();
    await expect(form.getByTestId('edit-discard')).toContainText(
      'Leaving the row again discards them',
    );
    await expect(review.getByRole('heading', { name: 'Row 3' })).toBeVisible();
    await expect(question).toHaveValue('A hand-written question about a cafe?');
    await form.getByRole('button', { name: 'Save and re-audit' }).click();
    await expect(review.getByTestId('edited-banner')).toContainText('Your edit, re-audited');
    // Edited by hand, said in the review's header and in the grid's status (not "changed").
    await expect(review.getByTestId('review-state')).toHaveText('edited · pending');
    // Said at the top: the review is back at its top after the long form.
    expect(await review.evaluate((element) => element.scrollTop)).toBe(0);
    const row3 = page.getByTestId('grid-row').nth(2);
    await expect(row3.locator('.badge', { hasText: 'edited' })).toBeVisible();
    await expect(row3.locator('.badge', { hasText: 'changed' })).toHaveCount(0);
    await page.screenshot({ path: join(screenshots, 'review-edited-1280x720.png') });
    await page.keyboard.press('a');
    await expect(review.getByRole('heading', { name: 'Row 4' })).toBeVisible();
    // Accepted: the grid and the review say the export holds the edit.
    await expect(row3.locator('.badge', { hasText: 'accepted' })).toBeVisible();
    await expect(row3.locator('.badge', { hasText: 'edited' })).toBeVisible();
    // The grid shows what the export holds: the edit, no longer the mojibake.
    await expect(row3).toContainText('A hand-written question about a cafe?');
    await row3.click();
    await expect(review.getByRole('heading', { name: 'Row 3' })).toBeVisible();
    await expect(review.getByTestId('review-state')).toHaveText('edited · accepted');
    await expect(review.getByTestId('edited-banner')).toContainText(
      'Your edit, accepted: the export holds it',
    );
    // Left twice with a change unsaved: the other row opens, its review not an edit form, and
    // back on row 3 the change is gone and no form is open.
    await page.keyboard.press('e');
    await question.fill('A change to leave behind');
    await page.getByTestId('grid-row').nth(3).click();
    await expect(form.getByTestId('edit-discard')).toBeVisible();
    await page.getByTestId('grid-row').nth(3).click();
    await expect(review.getByRole('heading', { name: 'Row 4' })).toBeVisible();
    await expect(form).toBeHidden();
    await row3.click();
    await expect(review.getByRole('heading', { name: 'Row 3' })).toBeVisible();
    await expect(form).toBeHidden();
    await expect(row3).toContainText('A hand-written question about a cafe?');

    // ? lists the keys; Esc closes the list, then the review.
    await page.keyboard.press('?');
    await expect(page.getByTestId('key-help')).toContainText('drop the row');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('key-help')).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(review).toBeHidden();

    // The export leaves the dropped row out and carries the accepted fix and the edit.
    const exported = (await exportAs(page))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { id: string; question: string; choices: { text: string[] } },
      );
    expect(exported.map((r) => r.id)).toEqual(rows.filter((_, i) => i !== 1).map((r) => r.id));
    expect(exported[0]?.choices.text).toHaveLength(4);
    expect(exported[1]?.question).toBe('A hand-written question about a cafe?');
  });

  test('an edit saved as another row opens lands in its own row; the other row stays shown', async ({
    page,
    svc,
  }) => {
    const rows = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 4);
    const path = await writeDataset(dir, 'csqa-save-leave', 'jsonl', rows);
    await importThroughPicker(page, svc.baseUrl, path, rows.length);
    const grid = page.getByTestId('grid-row');
    await grid.first().click();
    const review = page.getByTestId('review');
    await expect(review.getByRole('heading', { name: 'Row 1' })).toBeVisible();
    await page.keyboard.press('e');
    const form = review.getByTestId('edit-form');
    await form.getByLabel('Edit context').fill('Saved while leaving the row?');
    // The re-audit takes a while (a large row): the edit's answer comes 1.5 s late.
    await page.route('**/owner/editRow', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    const saved = page.waitForResponse('**/owner/editRow');
    await form.getByRole('button', { name: 'Save and re-audit' }).click();
    // Being saved, the draft is not lost by leaving: one click opens the other row.
    await grid.nth(1).click();
    await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
    // Every heading the review shows from now on.
    await page.evaluate(() => {
      const headings: string[] = [];
      (window as unknown as { headings: string[] }).headings = headings;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="review"] h2')?.textContent ?? '';
        if (text !== headings.at(-1)) headings.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await saved;
    await expect(grid.first().locator('.badge', { hasText: 'edited' })).toBeVisible();
    // The saved row's detail never took the other row's place, not even until a refresh.
    await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { headings: string[] }).headings),
    ).not.toContain('Row 1');
    await expect(review.getByTestId('edited-banner')).toHaveCount(0);
    await expect(form).toBeHidden();
    // The edit is row 1's.
    await grid.first().click();
    await expect(review.getByRole('heading', { name: 'Row 1' })).toBeVisible();
    await expect(review.getByTestId('review-state')).toHaveText('edited · pending');
    await page.keyboard.press('e');
    await expect(form.getByTestId('edit-from')).toHaveText('Edits your earlier edit.');
    await expect(form.getByLabel('Edit context')).toHaveValue('Saved while leaving the row?');
  });

  test('an edit left open as a search, the Overview, another screen or an import closes the review comes back with its row', async ({
    page,
    svc,
  }) => {
    const rows = readRows('commonsenseqa_validation_first200.jsonl').slice(0, 4);
    const path = await writeDataset(dir, 'csqa-kept-edit', 'jsonl', rows);
    await importThroughPicker(page, svc.baseUrl, path, rows.length);
    const grid = page.getByTestId('grid-row');
    const review = page.getByTestId('review');
    const form = review.getByTestId('edit-form');
    await grid.nth(1).click();
    await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
    await page.keyboard.press('e');
    await expect(form.getByTestId('edit-resumed')).toHaveCount(0);
    await form.getByLabel('Edit context').fill('Typed before a search');
    // A search closes the review without asking: the edit is kept, not lost.
    await page.getByLabel('Search', { exact: true }).fill('zzz no such text');
    await expect(review).toBeHidden();
    await page.getByLabel('Search', { exact: true }).fill('');
    await expect(grid).toHaveCount(4);
    await grid.nth(1).click();
    await expect(form.getByLabel('Edit context')).toHaveValue('Typed before a search');
    await expect(form.getByTestId('edit-resumed')).toHaveText(
      'Your edit, not saved yet, as you left it.',
    );
    // The Overview, and the keys screen, then back: the row opens on its edit again.
    await form.getByLabel('Edit context').fill('Typed before the Overview');
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(review).toBeHidden();
    await page.getByRole('tab', { name: 'Rows' }).click();
    await expect(form.getByLabel('Edit context')).toHaveValue('Typed before the Overview');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Keys' })
      .click();
    await expect(review).toBeHidden();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Datasets' })
      .click();
    await expect(form.getByLabel('Edit context')).toHaveValue('Typed before the Overview');
    // An import begun, and the dataset it opens; back on this dataset, the row opens on its edit.
    const other = readRows('commonsenseqa_validation_first200.jsonl').slice(10, 12);
    await dropFile(page, await writeDataset(dir, 'csqa-kept-other', 'jsonl', other));
    await page.getByTestId('import-dialog').getByRole('button', { name: 'Import' }).click();
    await expect(page.getByTestId('row-count')).toHaveText('2 rows');
    await expect(review).toBeHidden();
    await page
      .getByRole('navigation', { name: 'Datasets' })
      .getByRole('button', { name: /csqa-kept-edit/ })
      .click();
    await expect(page.getByTestId('row-count')).toHaveText('4 rows');
    await grid.nth(1).click();
    await expect(form.getByLabel('Edit context')).toHaveValue('Typed before the Overview');
    // Cancel discards it: the next edit of the row starts from the row.
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
    await grid.first().click();
    await expect(review.getByRole('heading', { name: 'Row 1' })).toBeVisible();
    await grid.nth(1).click();
    await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
    await expect(form).toBeHidden();
    await page.keyboard.press('e');
    await expect(form.getByLabel('Edit context')).toHaveValue(String(rows[1]?.question));
    await expect(form.getByTestId('edit-resumed')).toHaveCount(0);
  });

  test('at 1440x900: a long conversation opens on its change, the verdict in view', async ({
    page,
    svc,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const rows = readRows('oasst_en_100_trees.jsonl').slice(0, 12);
    // A mojibake deep in the first tree's best answer: the review must open scrolled to it.
    const tree = rows[0] as { prompt: { replies: { text: string; rank?: number }[] } };
    const best = tree.prompt.replies.find((r) => r.rank === 0) ?? tree.prompt.replies[0];
    if (best) best.text = `${best.text}\n\nIt\u00e2\u0080\u0099s the last point.`;
    const path = await writeDataset(dir, 'oasst-review', 'jsonl', rows);
    await importAndRefine(page, svc.baseUrl, path, rows.length);
    await page.getByLabel('changed').check();
    await page.getByTestId('grid-row').first().click();
    const review = page.getByTestId('review');
    await expect(review.getByTestId('verdicts').getByText('mojibake').first()).toBeInViewport();
    const changed = review.getByTestId('sample-diff').locator('mark.added').first();
    await page.screenshot({ path: join(screenshots, 'review-oasst-1440x900.png') });
    await expect(changed).toBeInViewport();
  });

  test('at 1280x720: the edit form of a long row opens in view, and stays so as JSON', async ({
    page,
    svc,
  }) => {
    // A long first turn and a long answer: the review's sample fills the panel many times over.
    const long = (what: string) =>
      Array.from({ length: 40 }, (_, i) => `${what} paragraph ${i + 1} of a long message.`).join(
        '\n\n',
      );
    const rows = [
      {
        task_type: 'conversation',
        messages: [
          { role: 'user', content: long('Question') },
          { role: 'assistant', content: long('Answer') },
        ],
      },
      { task_type: 'text', text: 'A short row.' },
    ];
    const path = await writeDataset(dir, 'long-edit', 'jsonl', rows);
    await importThroughPicker(page, svc.baseUrl, path, rows.length);
    await page.getByTestId('grid-row').first().click();
    const review = page.getByTestId('review');
    await expect(review.getByRole('heading', { name: 'Row 1' })).toBeVisible();
    await page.keyboard.press('e');
    const form = review.getByTestId('edit-form');
    await expect(form.getByLabel('Edit turn 1')).toBeInViewport();
    // the turns grow with their text; Save stays in reach below them
    await expect(form.getByRole('button', { name: 'Save and re-audit' })).toBeInViewport();
    await page.screenshot({ path: join(screenshots, 'review-edit-turns-1280x720.png') });
    await form.getByText('as JSON').click();
    await expect(form.getByLabel('Edit as JSON')).toBeInViewport();
    await expect(form.getByRole('button', { name: 'Save and re-audit' })).toBeInViewport();
    await page.screenshot({ path: join(screenshots, 'review-edit-long-1280x720.png') });
  });
});
