import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { importThroughPicker } from './support/screens.ts';
import { workDir } from './support/datasets.ts';

/**
 * A row of a few megabytes (a long document) opens in the review like any
 * other: its detail is read and encoded as JSON off the server's thread and
 * parsed by the page, every digit of a large id kept.
 */

const dir = workDir();

test.use({ viewport: { width: 1280, height: 720 } });

test('a row of 3 MB opens in the review with its text and its id', async ({ page, svc }) => {
  const path = join(dir, 'documents.jsonl');
  const long = `Chapter one. ${'It was a bright cold day in April, and the clocks were striking. '.repeat(48_000)}The end.`;
  writeFileSync(
    path,
    [
      '{"text":"A short note.","doc_id":1}',
      JSON.stringify({ text: long, doc_id: 0 }).replace('"doc_id":0', '"doc_id":9007199254740993'),
      '{"text":"Another short note.","doc_id":3}',
    ].join('\n'),
  );
  await importThroughPicker(page, svc.baseUrl, path, 3);

  await page.getByTestId('grid-row').nth(1).click();
  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
  await expect(review).toContainText('Chapter one. It was a bright cold day in April');
  // Every word came: the diff view counts the ones it folds away.
  await expect(review).toContainText('623992 unchanged words');
  await page.screenshot({
    path: join(import.meta.dirname, 'screenshots', 'large-row-1280x720.png'),
  });
  await page.keyboard.press('e');
  const form = review.getByTestId('edit-form');
  await form.getByText('as JSON').click();
  await expect(form.getByRole('textbox').first()).toHaveValue(/"doc_id": 9007199254740993\b/);
});
