/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** Where the e2e tests write the screenshots a person looks at. */
export const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

/** The two window sizes a review is checked at: a small laptop's and a common one. */
export const REVIEW_VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

/** A screenshot's path named for the page's window size: `NAME-1280x720.png`. */
export function sizedScreenshot(name: string, page: Page): string {
  const size = page.viewportSize();
  return join(SCREENSHOTS, `${name}-${size?.width}x${size?.height}.png`);
}

/**
 * Imports a file as a user does: the datasets screen, the file picker, the
 * dialog's Import, until the grid counts `rows` rows.
 */
export async function importThroughPicker(
  page: Page,
  baseUrl: string,
  path: string,
  rows: number,
): Promise<void> {
  await page.goto(`${baseUrl}/#/datasets`);
  await page.getByTestId('file-picker').setInputFiles(path);
  await page.getByTestId('import-dialog').getByRole('button', { name: 'Import' }).click();
  await expect(page.getByTestId('row-count')).toHaveText(`${rows.toLocaleString('en-US')} rows`);
}

/** Drops files on the window the way a browser does: a drop event carrying Files. */
export async function dropFile(page: Page, ...paths: string[]): Promise<void> {
  const files = paths.map((path) => ({
    name: basename(path),
    data: readFileSync(path).toString('base64'),
  }));
  await page.evaluate((files) => {
    const transfer = new DataTransfer();
    for (const { name, data } of files) {
      const binary = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      transfer.items.add(new File([binary], name));
    }
    window.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }),
    );
    window.dispatchEvent(
      new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
    );
  }, files);
}

/** The review's parts an edit as JSON works with. */
export interface JsonEditor {
  review: Locator;
  form: Locator;
  /** The sample's JSON, as the editor shows it. */
  json: Locator;
}

/**
 * Opens the grid's row `index` (from 0) in the review, then its edit form as
 * JSON, as a person does: a click on the row, `e`, "as JSON".
 */
export async function openJsonEditor(page: Page, index: number): Promise<JsonEditor> {
  await page.getByTestId('grid-row').nth(index).click();
  const review = page.getByTestId('review');
  await expect(review.getByRole('heading', { name: `Row ${index + 1}` })).toBeVisible();
  await page.keyboard.press('e');
  const form = review.getByTestId('edit-form');
  await form.getByText('as JSON').click();
  return { review, form, json: form.getByRole('textbox').first() };
}

/** Saves the edit and waits until the review shows it re-audited. */
export async function saveEdit({ review, form }: JsonEditor): Promise<void> {
  await form.getByRole('button', { name: 'Save and re-audit' }).click();
  await expect(review.getByTestId('edited-banner')).toContainText('Your edit, re-audited');
}

/**
 * Exports the open dataset from its export panel (in `format`, or the one
 * chosen) and returns the downloaded file's bytes once the panel says it is
 * done.
 */
export async function exportAs(
  page: Page,
  format?: 'jsonl' | 'json' | 'csv' | 'parquet',
): Promise<Buffer> {
  if (format) await page.getByLabel('Export format').selectOption(format);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  await expect(page.getByTestId('export-result')).toBeVisible();
  return readFileSync(await download.path());
}
