import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { leafText } from '../src-shared/row-fields.ts';
import { expect, test } from '@playwright/test';
import { signIn, startSvc, stopSvc } from './fixtures.ts';
import { workDir, writeDataset } from './support/datasets.ts';
import { dropFile, REVIEW_VIEWPORTS } from './support/screens.ts';

/**
 * @walk: the app walked as a new user would (issue 25's "Done when"), on
 * every file of ../shared/datasets and a chat file of an invented schema, at
 * 1280x720 and 1440x900: import, mapping, refine, Overview, reviews, search,
 * edit, drop, export in each format, re-import. Screenshots go to
 * WALK_SHOTS (/tmp/walk-shots) for a person to look at; a log of what was
 * seen (counts, timings) beside them. Slow, so it runs only when asked:
 * `SVC_WALK=1 npx playwright test --grep @walk`.
 */

const SHOTS = process.env.WALK_SHOTS ?? '/tmp/walk-shots';
const EXPORTS = join(SHOTS, 'exports');
const shared = join(import.meta.dirname, '..', '..', 'shared', 'datasets');
const dir = workDir();

type Row = Record<string, unknown>;

/** 64 chats of my own schema; "sextant" only in the assistant's turns, "harbour-log" only in `meta.src`. */
function inventedChat(): Row[] {
  const rows: Row[] = Array.from({ length: 64 }, (_, i) => ({
    dialog: [
      {
        speaker: 'visitor',
        utterance:
          i % 9 === 4
            ? `How did sailors find their way at sea in the year ${1700 + i}?`
            : `What  is a good name for boat number ${i}?`,
      },
      {
        speaker: 'guide',
        utterance:
          i % 9 === 4
            ? `Mostly with a sextant and a chronometer; it\u00e2\u0080\u0099s how longitude was found.`
            : `Call boat ${i} "Wave ${i}", short and easy to shout.`,
      },
      ...(i % 21 === 0
        ? [
            { speaker: 'visitor', utterance: 'And a name for its dinghy?' },
            { speaker: 'guide', utterance: 'Name it after the boat, with "Little" in front.' },
          ]
        : []),
    ],
    meta: { src: i % 8 === 1 ? 'harbour-log' : 'chat-export', lang: i % 5 === 0 ? 'de' : 'en' },
  }));
  rows[40] = structuredClone(rows[13] as Row); // a copy: a duplicate pair
  return rows;
}

interface WalkFile {
  name: string;
  path: () => Promise<string>;
  /** Strings an assistant would have said (an answer, the endings, the replies). */
  answer: (row: Row) => string[];
  /** Strings of metadata fields (mapped or not). */
  meta: (row: Row) => string[];
  /** Rows are read per path of a tree: the grid's count is not the file's lines. */
  tree?: boolean;
}

const str = (v: unknown): string[] => (typeof v === 'string' ? [v] : []);
const keysOf = (v: unknown): string[] => (v && typeof v === 'object' ? Object.keys(v) : []);
interface Reply {
  text?: string;
  role?: string;
  replies?: Reply[];
  model_name?: string;
}
const assistantTexts = (node: Reply | undefined): string[] =>
  node
    ? [
        ...(node.role === 'assistant' ? str(node.text) : []),
        ...(node.replies ?? []).flatMap(assistantTexts),
      ]
    : [];

const fromShared = (file: string) => () => Promise.resolve(join(shared, file));
const FILES: WalkFile[] = [
  {
    name: 'gsm8k_test_first300.jsonl',
    path: fromShared('gsm8k_test_first300.jsonl'),
    answer: (r) => str(r.answer),
    meta: () => [],
  },
  {
    name: 'hellaswag_val_sample200.jsonl',
    path: fromShared('hellaswag_val_sample200.jsonl'),
    answer: (r) => r.endings as string[],
    meta: (r) => [...str(r.split_type), ...str(r.source_id)],
  },
  {
    name: 'truthfulqa_mc_task_first200.jsonl',
    path: fromShared('truthfulqa_mc_task_first200.jsonl'),
    answer: (r) => keysOf(r.mc1_targets),
    meta: (r) => keysOf(r.mc2_targets).filter((k) => !keysOf(r.mc1_targets).includes(k)),
  },
  {
    name: 'commonsenseqa_validation_first200.jsonl',
    path: fromShared('commonsenseqa_validation_first200.jsonl'),
    answer: (r) => (r.choices as { text: string[] }).text,
    meta: (r) => [...str(r.question_concept), ...str(r.id)],
  },
  {
    name: 'alpaca_original_300.jsonl',
    path: fromShared('alpaca_original_300.jsonl'),
    answer: (r) => str(r.output),
    meta: () => [],
  },
  {
    name: 'alpaca_cleaned_300.jsonl',
    path: fromShared('alpaca_cleaned_300.jsonl'),
    answer: (r) => str(r.output),
    meta: () => [],
  },
  {
    name: 'alpaca_pairs_index.jsonl',
    path: fromShared('alpaca_pairs_index.jsonl'),
    answer: () => [],
    meta: (r) => str(r.match),
  },
  {
    name: 'ftfy_mojibake_cases.jsonl',
    path: fromShared('ftfy_mojibake_cases.jsonl'),
    answer: () => [],
    meta: (r) => [...str(r.label), ...str(r.comment)],
  },
  {
    name: 'oasst_en_100_trees.jsonl',
    path: fromShared('oasst_en_100_trees.jsonl'),
    answer: (r) => assistantTexts((r as { prompt?: Reply }).prompt),
    meta: (r) => str(r.tree_state),
    tree: true,
  },
  {
    name: 'harbour_chats.jsonl',
    path: async () => writeDataset(dir, 'harbour_chats', 'jsonl', inventedChat()),
    answer: (r) =>
      (r.dialog as { speaker: string; utterance: string }[])
        .filter((t) => t.speaker === 'guide')
        .map((t) => t.utterance),
    meta: (r) => str((r.meta as { src: string }).src),
  },
];

const readJsonl = (path: string): Row[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);

/**
 * A word (7+ letters) found in `inside` strings of some rows and nowhere else
 * in the file, the one in most rows; and how many rows hold it.
 */
function onlyWord(
  rows: Row[],
  inside: (row: Row) => string[],
): { word: string; rows: number } | null {
  const everywhere = rows.map((row) => leafText(row).toLowerCase());
  const candidates = new Map<string, number>();
  rows.forEach((row) => {
    const words = new Set(
      inside(row)
        .join(' ')
        .toLowerCase()
        .match(/[a-z][a-z-]{6,}/g) ?? [],
    );
    for (const word of words) candidates.set(word, (candidates.get(word) ?? 0) + 1);
  });
  let best: { word: string; rows: number } | null = null;
  for (const [word, count] of candidates) {
    const holding = everywhere.filter((text) => text.includes(word)).length;
    // Every row holding it anywhere holds it in `inside`, and the rest of those rows lack it.
    if (holding !== count) continue;
    const elsewhere = rows.some((row) => {
      const own = inside(row).join('\n').toLowerCase();
      const rest = leafText(row).toLowerCase().split(own).join('');
      return rest.includes(word);
    });
    if (elsewhere) continue;
    if (!best || count > best.rows) best = { word, rows: count };
  }
  return best;
}

function note(file: string, text: string): void {
  appendFileSync(join(SHOTS, 'walk-log.txt'), `${file}: ${text}\n`);
}

/** Scrolls the panel that scrolls `inside` (or the window) to `y`. */
async function scrollTo(inside: Locator, y: number): Promise<number> {
  return inside.evaluate((element, y) => {
    let node: HTMLElement | null = element as HTMLElement;
    while (
      node &&
      !(
        node.scrollHeight > node.clientHeight + 2 &&
        /auto|scroll/.test(getComputedStyle(node).overflowY)
      )
    )
      node = node.parentElement;
    const scroller = node ?? document.scrollingElement ?? document.documentElement;
    scroller.scrollTop = y;
    return scroller.scrollHeight - scroller.clientHeight;
  }, y);
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await work();
  return [result, Math.round(performance.now() - start)];
}

test.describe('@walk the app, file by file', () => {
  test.describe.configure({ timeout: 600_000 });
  mkdirSync(EXPORTS, { recursive: true });

  for (const viewport of REVIEW_VIEWPORTS) {
    for (const [index, file] of FILES.entries()) {
      test(`${file.name} at ${viewport.width}x${viewport.height}`, async ({ page }) => {
        test.skip(!process.env.SVC_WALK, 'the walk takes minutes: SVC_WALK=1 to take it');
        test.skip(!existsSync(shared), 'no ../shared/datasets beside the repository');
        // A new user each time: a fresh data folder, nothing imported yet.
        const svc = await startSvc();
        try {
          await walkFile(page, svc.baseUrl, await signIn(svc), file, index, viewport);
        } finally {
          await stopSvc(svc);
        }
      });
    }
  }
});

async function walkFile(
  page: Page,
  baseUrl: string,
  session: string,
  file: WalkFile,
  index: number,
  viewport: { width: number; height: number },
): Promise<void> {
  const size = `${viewport.width}x${viewport.height}`;
  await page.context().addCookies([
    {
      name: 'svc_session',
      value: session,
      domain: new URL(baseUrl).hostname,
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
  await page.setViewportSize(viewport);
  const stem = basename(file.name, '.jsonl');
  const folder = join(SHOTS, size);
  mkdirSync(folder, { recursive: true });
  let step = 0;
  const shot = async (what: string, fullPage = false) =>
    page.screenshot({
      path: join(folder, `${stem}-${String(++step).padStart(2, '0')}-${what}.png`),
      fullPage,
    });
  const log = (text: string) => note(`${size} ${stem}`, text);
  /** The review from its top to its bottom, a shot per screen of it. */
  const reviewShots = async (what: string) => {
    const height = await scrollTo(review.locator('.review-header'), 0);
    for (let y = 0, k = 0; k < 6; y = Math.min(height, y + 300), k++) {
      await scrollTo(review.locator('.review-header'), y);
      await shot(`${what}-${k}`);
      if (y >= height) break;
    }
    await scrollTo(review.locator('.review-header'), 0);
  };
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

  const path = await file.path();
  const rows = readJsonl(path);
  const grid = page.getByTestId('grid-row');
  const count = page.getByTestId('row-count');
  const review = page.getByTestId('review');

  // ---- import: the picker for half the files, a drop on the window for the others
  await page.goto(`${baseUrl}/#/datasets`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shot('empty');
  if (index % 2 === 0) await page.getByTestId('file-picker').setInputFiles(path);
  else await dropFile(page, path);
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toBeVisible();
  await expect(
    dialog
      .getByTestId('mapped-preview')
      .or(dialog.getByTestId('mapping-incomplete'))
      .or(dialog.getByTestId('import-blocked'))
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  await shot('import-dialog');
  await dialog.evaluate((d) => d.querySelector('.dialog-body, .dialog > div')?.scrollTo(0, 10_000));
  await shot('import-dialog-scrolled');
  const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
  if (!(await importButton.isEnabled())) {
    log(
      `Import is off at first: "${(await dialog.innerText()).slice(0, 400).replace(/\n/g, ' | ')}"`,
    );
    // The mapping step by hand: the text is the file's one string field.
    await dialog.getByLabel('Task type').selectOption('text');
    await dialog.getByLabel('Role text').fill('match');
    await dialog.getByLabel('Role text').blur();
    await shot('mapping-by-hand');
  }
  await expect(importButton).toBeEnabled({ timeout: 10_000 });
  const [, importMs] = await timed(async () => {
    await importButton.click();
    await expect(dialog).toBeHidden({ timeout: 60_000 });
    await expect(page.getByTestId('importing')).toHaveCount(0, { timeout: 60_000 });
    await expect(count).toHaveText(/^[1-9][\d,]* rows?$/, { timeout: 60_000 });
  });
  const imported = Number((await count.innerText()).replace(/\D/g, ''));
  log(`imported ${imported} rows of ${rows.length} lines in ${importMs} ms`);
  if (!file.tree) expect.soft(imported, 'rows imported').toBe(rows.length);
  await shot('imported');

  // ---- refine: estimate, then the run
  await page.getByLabel('Operation').selectOption({ label: 'Refine' });
  const [, estimateMs] = await timed(async () => {
    await page.getByRole('button', { name: 'Estimate' }).click();
    await expect(page.getByTestId('estimate')).toBeVisible({ timeout: 60_000 });
  });
  log(`estimate "${await page.getByTestId('estimate').innerText()}" in ${estimateMs} ms`);
  await shot('estimate');
  const [, runMs] = await timed(async () => {
    await page.getByRole('button', { name: 'Start refine' }).click();
    await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 180_000 });
  });
  log(`refine in ${runMs} ms: "${await page.getByTestId('run-status').innerText()}"`);
  await shot('refined');

  // ---- the Overview, top to bottom
  await page.getByRole('tab', { name: 'Overview' }).click();
  const overview = page.getByTestId('overview');
  await expect(overview).toBeVisible();
  await expect(overview.locator('.histograms figure').first())
    .toBeVisible({ timeout: 60_000 })
    .catch(() => log('no histograms in the Overview'));
  const height = await scrollTo(overview, 0);
  const stride = Math.round(viewport.height * 0.7);
  for (let y = 0, k = 0; k < 8; y = Math.min(height, y + stride), k++) {
    await scrollTo(overview, y);
    await shot(`overview-${k}`);
    if (y >= height) break;
  }
  log(`overview: ${(await overview.innerText()).slice(0, 600).replace(/\n/g, ' | ')}`);
  await page.getByRole('tab', { name: 'Rows' }).click();
  await expect(grid.first()).toBeVisible();

  // ---- reviews: a duplicate, a fixed row, an accepted one, an undecided one, the first
  const failed = page.getByLabel('Failed check');
  const duplicateOption = failed.locator('option', { hasText: 'duplicates' });
  if ((await duplicateOption.count()) > 0) {
    await failed.selectOption({ label: (await duplicateOption.first().innerText()).trim() });
    await expect(count)
      .not.toHaveText(`${imported.toLocaleString('en-US')} rows`)
      .catch(() => undefined);
    log(`duplicates filter: ${await count.innerText()}`);
    if ((await count.innerText()) !== '0 rows') {
      await grid.first().click();
      await expect(review).toBeVisible();
      await expect(review.getByRole('columnheader', { name: /\(kept\)/ })).toBeVisible();
      await reviewShots('review-duplicate');
      await page.keyboard.press('Escape');
    }
    await failed.selectOption('');
  } else log('no duplicates option in the Failed check filter');

  const changed = page.getByLabel('changed');
  await changed.check();
  await expect(count)
    .not.toHaveText(`${imported.toLocaleString('en-US')} rows`)
    .catch(() => undefined);
  const changedRows = await count.innerText();
  log(`changed filter: ${changedRows}`);
  if ((await grid.count()) > 0) {
    await grid.first().click();
    await expect(review).toBeVisible();
    await reviewShots('review-fixed');
    const accept = review.getByRole('button', { name: 'Accept fix' });
    if ((await accept.count()) > 0) {
      const heading = await review.getByRole('heading', { level: 2 }).innerText();
      await accept.click();
      await expect(review.getByRole('heading', { level: 2 })).not.toHaveText(heading);
      await grid.first().click();
      await expect(review.getByRole('heading', { level: 2 })).toHaveText(heading);
      await expect(review.getByTestId('review-state')).toHaveText('accepted');
      await shot('review-accepted');
    } else log('the fixed row offers no "Accept fix"');
    await page.keyboard.press('Escape');
  } else log('no changed rows');
  await changed.uncheck();
  await expect(count).toHaveText(`${imported.toLocaleString('en-US')} rows`);
  await expect(grid.first()).toBeVisible();

  const undecided = grid.filter({ has: page.locator('.badge.undecided') });
  if ((await undecided.count()) > 0) {
    await undecided.first().click();
    await expect(review).toBeVisible();
    await reviewShots('review-undecided');
    const summary = review.getByTestId('undecided-checks');
    if ((await summary.count()) > 0) {
      await summary.locator('summary').click();
      await shot('review-undecided-open');
    }
    await page.keyboard.press('Escape');
  } else log('no undecided row on the first page');
  await expect(async () => {
    await grid.first().click();
    await expect(review).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await reviewShots('review-first');
  await page.keyboard.press('?');
  await shot('review-keys');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  // ---- search: a word only an answer holds, a word only metadata holds
  const search = page.getByLabel('Search', { exact: true });
  for (const [kind, inside] of [
    ['answer', file.answer],
    ['metadata', file.meta],
  ] as const) {
    const found = onlyWord(rows, inside);
    if (!found) {
      log(`search ${kind}: no word only there`);
      continue;
    }
    const previous = await count.innerText();
    await search.fill(found.word);
    await search.press('Enter');
    await expect(count)
      .not.toHaveText(previous)
      .catch(() => undefined);
    await expect(count)
      .not.toHaveText(`${imported.toLocaleString('en-US')} rows`)
      .catch(() => undefined);
    const shown = await count.innerText();
    log(`search ${kind} "${found.word}" (in ${found.rows} lines): ${shown}`);
    if (!file.tree)
      expect
        .soft(shown, `search "${found.word}"`)
        .toBe(`${found.rows} row${found.rows === 1 ? '' : 's'}`);
    else expect.soft(shown, `search "${found.word}"`).not.toBe('0 rows');
    await shot(`search-${kind}`);
  }
  await search.fill('');
  await search.press('Enter');
  await expect(count).toHaveText(`${imported.toLocaleString('en-US')} rows`);

  // ---- edit the third row, drop the fourth
  await grid.nth(2).click();
  await expect(review).toBeVisible();
  await review.getByRole('button', { name: 'Edit', exact: true }).click();
  const form = review.getByTestId('edit-form');
  await expect(form).toBeVisible();
  await shot('edit-form');
  const box = form.locator('textarea, input:not([type=radio]):not([type=checkbox])').first();
  const before = await box.inputValue();
  await box.fill(
    before.startsWith('{')
      ? before.replace(/"([^"]{3,})"/, '"$1 (checked by hand)"')
      : `${before} (checked by hand)`,
  );
  await form.getByRole('button', { name: 'Save and re-audit' }).click();
  await expect(review.getByTestId('edited-banner')).toBeVisible({ timeout: 30_000 });
  await shot('edited');
  await page.keyboard.press('Escape');
  await grid.nth(3).click();
  const dropped = await review.getByRole('heading', { level: 2 }).innerText();
  await review.getByRole('button', { name: 'Drop', exact: true }).click();
  await expect(page.getByTestId('dataset-dropped').first()).toContainText('1 row dropped', {
    timeout: 15_000,
  });
  log(`dropped ${dropped}`);
  await shot('dropped');
  await page.keyboard.press('Escape');

  // ---- export in each format; re-import one of them (a different format per file)
  const exports: Record<string, string> = {};
  for (const format of ['jsonl', 'json', 'csv', 'parquet'] as const) {
    await page.getByLabel('Export format').selectOption(format);
    await page.waitForTimeout(0);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    const target = join(EXPORTS, size, `${stem}.clean.${format}`);
    await download.saveAs(target);
    exports[format] = target;
    await expect(page.getByTestId('export-result')).toContainText(
      `${format === 'jsonl' ? 'JSONL' : format === 'json' ? 'JSON' : format === 'csv' ? 'CSV' : 'Parquet'} exported`,
    );
    log(
      `export ${format}: "${await page.getByTestId('export-result').innerText()}"${(await page.getByTestId('export-added-columns').count()) ? ` / "${await page.getByTestId('export-added-columns').innerText()}"` : ''}`,
    );
    await shot(`export-${format}`);
  }
  const exportedLines = readJsonl(exports.jsonl ?? '');
  if (!file.tree) expect.soft(exportedLines.length, 'rows exported').toBe(rows.length - 1);
  const again = (['jsonl', 'json', 'csv', 'parquet'] as const)[index % 4] ?? 'jsonl';
  await page.getByTestId('file-picker').setInputFiles(exports[again] ?? '');
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByTestId('mapped-preview').or(dialog.getByTestId('mapping-incomplete')).first(),
  ).toBeVisible({ timeout: 30_000 });
  await shot(`reimport-${again}-dialog`);
  if (!(await importButton.isEnabled())) {
    log(
      `re-import ${again}: Import is off: "${(await dialog.innerText()).slice(0, 400).replace(/\n/g, ' | ')}"`,
    );
    await dialog.getByLabel('Task type').selectOption('text');
    await dialog.getByLabel('Role text').fill('match');
    await dialog.getByLabel('Role text').blur();
  }
  await importButton.click({ timeout: 30_000 });
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await expect(page.locator('.dataset-item')).toHaveCount(2);
  await expect(page.getByTestId('importing')).toHaveCount(0, { timeout: 60_000 });
  const listed = page.locator('.dataset-item').first();
  await expect(listed).toContainText(/\d rows?/);
  log(`re-import listed as: "${(await listed.innerText()).replace(/\n/g, ' | ')}"`);
  await expect
    .soft(count, 'the grid shows the re-imported rows')
    .toHaveText(/^[1-9][\d,]* rows?$/, { timeout: 15_000 });
  log(`re-imported ${again}: ${await count.innerText()} (exported ${exportedLines.length} lines)`);
  await shot(`reimported-${again}`);
  log(`page errors: ${errors.length ? errors.join(' || ') : 'none'}`);
  expect.soft(errors).toEqual([]);
}

// The walk's shots are read by a person: list what the run wrote, once.
test.afterAll(() => {
  if (existsSync(SHOTS)) note('shots', readdirSync(SHOTS).join(', '));
});
