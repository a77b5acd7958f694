/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, type Page } from '@playwright/test';

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
