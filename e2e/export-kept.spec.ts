import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import {
  exportAs,
  importThroughPicker,
  openJsonEditor,
  saveEdit,
  sizedScreenshot,
} from './support/screens.ts';
import { workDir } from './support/datasets.ts';

/**
 * An accepted edit the file's schema cannot hold (a fourth message in an
 * Alpaca row, which holds one prompt and one response) is exported as the
 * row was, and the export panel says so and opens the row.
 */

const dir = workDir();

test.use({ viewport: { width: 1280, height: 720 } });

test('an export names the rows whose accepted edit does not fit the file', async ({
  page,
  svc,
}) => {
  const path = join(dir, 'alpaca-kept.jsonl');
  const rows = Array.from({ length: 3 }, (_, i) =>
    JSON.stringify({ instruction: `Name colour number ${i}.`, input: '', output: `Colour ${i}.` }),
  );
  writeFileSync(path, rows.join('\n') + '\n');
  await importThroughPicker(page, svc.baseUrl, path, 3);

  const editor = await openJsonEditor(page, 1);
  const { review, json } = editor;
  const sample = JSON.parse(await json.inputValue()) as { messages: object[] };
  sample.messages.push(
    { role: 'user', content: 'And another?' },
    { role: 'assistant', content: 'Blue.' },
  );
  await json.fill(JSON.stringify(sample, null, 2));
  await saveEdit(editor);
  // The candidate is the person's edit, and its column says so (folded checks' tables too).
  await expect(
    review.getByTestId('verdicts').locator('th', { hasText: 'After your edit' }),
  ).toHaveCount(1);
  await expect(
    review.getByTestId('verdicts').locator('th', { hasText: 'After the fix' }),
  ).toHaveCount(0);
  await page.keyboard.press('a');
  await page.keyboard.press('Escape');
  await expect(review).toHaveCount(0);

  expect((await exportAs(page, 'jsonl')).toString('utf8')).toBe(rows.join('\n') + '\n');
  // Closed right after the decision, the review stayed closed (the decision did not move it on).
  await expect(review).toHaveCount(0);
  const kept = page.getByTestId('export-kept');
  await expect(kept).toContainText('1 row exported as it was: the accepted fix does not fit');
  await kept.getByText('1 row exported').click();
  await expect(kept).toContainText('not 4 messages');
  await page.screenshot({ path: sizedScreenshot('export-kept', page) });
  await kept.getByRole('button', { name: 'Row 2' }).click();
  await expect(review.getByRole('heading', { name: 'Row 2' })).toBeVisible();
});
