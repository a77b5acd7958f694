import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { readRows, workDir } from './support/datasets.ts';

/**
 * A dataset's life at 50,000 templated rows (GSM8K questions with a numbered
 * suffix: the shape of synthetic data; bench/server-wait.ts measures the
 * same at scale): the grid says how far the search index is while it is
 * built, and a cheap route asked every 100 ms meanwhile is answered at once
 * through the import, the scan, the Overview, searches and an export. The
 * bench holds the goal (50 ms); this test holds the server to answering
 * within a second on a loaded machine (it waited 19 s behind the Overview
 * before issue 22), through every row dropped and restored and the
 * dataset's delete too, and prints the worst wait.
 */

const ROWS = 50_000;
const PING_MS = 100;
const WAIT_BOUND_MS = 1000;

/** Writes the file; returns how many of its rows hold `search` (any field, any case). */
async function templatedFile(path: string, search: string): Promise<number> {
  const base = readRows('gsm8k_test_first300.jsonl');
  const out = createWriteStream(path);
  let holding = 0;
  for (let i = 0; i < ROWS; i++) {
    const row = base[i % base.length] as { question: string; answer: string };
    const variant = Math.floor(i / base.length) + 1;
    const question = `${row.question} (${variant})`;
    if (`${question}\n${row.answer}`.toLowerCase().includes(search)) holding++;
    const line = JSON.stringify({ question, answer: row.answer });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return holding;
}

test.describe('a dataset ready as soon as it is stored', () => {
  const dir = workDir();

  test('says "indexing… N%" while its search index is built, and the server never waits', async ({
    page,
    svc,
    session,
  }) => {
    test.setTimeout(120_000);
    const path = join(dir, 'templated-50k.jsonl');
    const holding = await templatedFile(path, '(17)');
    const waits: { phase: string; ms: number }[] = [];
    let phase = 'import';
    const stop = new AbortController();
    const pinger = (async () => {
      while (!stop.signal.aborted) {
        const sent = performance.now();
        const answered = await fetch(`${svc.baseUrl}/pricing`).then(
          async (res) => res.ok && (await res.arrayBuffer()).byteLength > 0,
          () => false,
        );
        const took = performance.now() - sent;
        // A reset connection counts as a wait past the bound: the server did not answer.
        waits.push({ phase, ms: answered ? took : Number.POSITIVE_INFINITY });
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PING_MS - took)));
      }
    })();

    try {
      await page.goto(`${svc.baseUrl}/#/datasets`);
      await page.getByTestId('file-picker').setInputFiles(path);
      const dialog = page.getByTestId('import-dialog');
      await expect(dialog.getByTestId('detected')).toContainText('detected: gsm8k');
      await dialog.getByRole('button', { name: 'Import' }).click();
      // The index is built as the rows are committed: the grid says how far it is.
      const indexing = page.getByRole('status', { name: 'Search index' });
      await expect(indexing).toHaveText(/^indexing… \d{1,2}%$/, { timeout: 30_000 });
      await expect(page.getByTestId('row-count')).toHaveText('50,000 rows', { timeout: 60_000 });

      phase = 'search while indexing';
      const search = page.getByRole('searchbox', { name: 'Search' });
      await search.fill('(17)');
      await search.press('Enter');
      await expect(page.getByTestId('row-count')).toHaveText(
        `${holding.toLocaleString('en-US')} rows`,
        { timeout: 30_000 },
      );
      await search.fill('');
      await search.press('Enter');
      await expect(page.getByTestId('row-count')).toHaveText('50,000 rows');
      // Complete: the status goes away.
      await expect(indexing).toBeHidden({ timeout: 90_000 });

      phase = 'scan and Overview';
      await page.getByRole('tab', { name: 'Overview' }).click();
      const overview = page.getByTestId('overview');
      await expect(overview.getByTestId('findings')).toBeVisible({ timeout: 90_000 });
      await expect(overview).not.toContainText('scanning…', { timeout: 90_000 });

      phase = 'search, indexed';
      await page.getByRole('tab', { name: 'Rows' }).click();
      await search.fill('janet');
      await search.press('Enter');
      await expect(page.getByTestId('row-count')).not.toHaveText('50,000 rows');

      phase = 'export';
      const datasets = (await (
        await fetch(`${svc.baseUrl}/owner/listDatasets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `svc_session=${session}` },
          body: '{}',
        })
      ).json()) as { id: string; name: string }[];
      const dataset = datasets.find((d) => d.name === 'templated-50k');
      expect(dataset).toBeDefined();
      const exported = await fetch(`${svc.baseUrl}/owner/exportDataset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `svc_session=${session}` },
        body: JSON.stringify({
          dataset_id: dataset?.id,
          format: 'jsonl',
          path: join(dir, 'templated-50k-export.jsonl'),
        }),
      });
      expect(exported.status).toBe(200);

      // Every row dropped and restored (the review's "Drop all shown"), then the dataset deleted:
      // each held the server 0.5-1.3 s at 50,000 rows while it ran as one transaction or slice.
      const owner = (method: string, body: unknown) =>
        fetch(`${svc.baseUrl}/owner/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `svc_session=${session}` },
          body: JSON.stringify(body),
        });
      phase = 'drop every row, restore every row';
      for (const decision of ['dropped', 'restored']) {
        const decided = await owner('decide', { dataset_id: dataset?.id, filter: {}, decision });
        expect(decided.status).toBe(200);
        expect(((await decided.json()) as { updated: number }).updated).toBe(ROWS);
      }
      phase = 'delete';
      expect((await owner('deleteDataset', { dataset_id: dataset?.id })).status).toBe(200);
    } finally {
      stop.abort();
      await pinger;
    }

    const worst = new Map<string, number>();
    for (const { phase: name, ms } of waits) worst.set(name, Math.max(worst.get(name) ?? 0, ms));
    const summary = [...worst].map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join(', ');
    console.log(`worst wait for GET /pricing over ${waits.length} pings: ${summary}`);
    expect(waits.length).toBeGreaterThan(10);
    expect(Math.max(...waits.map((w) => w.ms))).toBeLessThan(WAIT_BOUND_MS);
  });
});
