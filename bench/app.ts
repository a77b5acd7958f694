import { createWriteStream, mkdtempSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { signIn, startSvc, stopSvc } from '../e2e/fixtures.ts';
import { ownerCaller } from './owner-client.ts';
import { readJsonl } from '../src-main/engine/testing/real-data.ts';
import { CHROMIUM_PATH } from '../playwright.config.ts';
import { mib } from './stats.ts';

/**
 * The app on a big dataset: import speed of a generated JSONL (real GSM8K
 * rows replicated, each made distinct), time from opening the dataset to the
 * first painted grid row, and the renderer's JS heap while the grid is
 * scrolled from top to bottom (Chromium, against `svc serve`).
 */
export async function benchApp(rows: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-app-'));
  const path = join(dir, `gsm8k-x${rows}.jsonl`);
  const base = readJsonl<{ question: string; answer: string }>('gsm8k_test_first300.jsonl');
  const out = createWriteStream(path);
  for (let i = 0; i < rows; i++) {
    const row = base[i % base.length] as { question: string; answer: string };
    if (
      !out.write(
        `${JSON.stringify({ id: i, question: `${row.question} (#${i})`, answer: row.answer })}\n`,
      )
    ) {
      await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  const bytes = statSync(path).size;

  const server = await startSvc();
  try {
    const cookie = await signIn(server);
    const owner = ownerCaller(server, cookie);

    const started = performance.now();
    const dataset = await owner('importDataset', {
      source: { path },
      shape: 'gsm8k',
      name: 'bench',
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\n## app: import, grid, scrolling (${rows.toLocaleString('en-US')} rows, ${mib(bytes)} JSONL)`,
    );
    console.log(
      `import: ${seconds.toFixed(1)} s, ${(bytes / 1e6 / seconds).toFixed(1)} MB/s, ` +
        `${Math.round(rows / seconds).toLocaleString('en-US')} rows/s (server side, streamed into SQLite; ` +
        `${String(dataset['rows'])} rows stored, ${String(dataset['errors'])} row errors)`,
    );

    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const { hostname } = new URL(server.baseUrl);
    await context.addCookies([{ name: 'svc_session', value: cookie, domain: hostname, path: '/' }]);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/#/datasets`);
    await page.locator('.dataset-item').first().waitFor();
    const clicked = performance.now();
    await page.locator('.dataset-item').first().click();
    await page.locator('[data-testid=grid-row] [role=cell]').first().waitFor();
    const firstPaint = performance.now() - clicked;
    console.log(`first grid paint after opening the dataset: ${firstPaint.toFixed(0)} ms`);

    const cdp = await context.newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
      return usage.usedSize;
    };
    const heapBefore = await heap();
    let peak = heapBefore;
    const steps = 40;
    const scrollStarted = performance.now();
    for (let step = 1; step <= steps; step++) {
      await page.getByTestId('grid-body').evaluate((el, fraction) => {
        el.scrollTop = (el.scrollHeight - el.clientHeight) * fraction;
      }, step / steps);
      await page.waitForTimeout(60);
      await page.locator('[data-testid=grid-row] [role=cell]').first().waitFor();
      if (step % 5 === 0) peak = Math.max(peak, await heap());
    }
    // the row number of the last row on screen: the bottom of the dataset was reached
    const lastRow = await page
      .locator('[data-testid=grid-row]')
      .last()
      .locator('[role=cell]')
      .nth(1)
      .innerText();
    console.log(
      `scrolled top to bottom in ${steps} jumps (${((performance.now() - scrollStarted) / 1000).toFixed(1)} s); ` +
        `last row shown: ${lastRow}`,
    );
    console.log(
      `renderer JS heap: ${mib(heapBefore)} after first paint, peak ${mib(peak)} while scrolling`,
    );
    await browser.close();
  } finally {
    await stopSvc(server);
  }
}
