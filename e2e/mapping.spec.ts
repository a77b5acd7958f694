/// <reference lib="dom" />
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { workDir } from './support/datasets.ts';
import { dropFile, exportAs } from './support/screens.ts';
import {
  DIALOG_ROWS,
  DOLLY_ROWS,
  MMLU_COLUMNS,
  MMLU_ROWS,
  NESTED_ROWS,
  firstDifference,
  mmluCsv,
  parseCsv,
  writeJsonl,
} from './support/mapping-files.ts';

/**
 * The import dialog's field mapping: files no built-in shape matches get a
 * mapping guessed from their field names, which the user checks and corrects
 * role by role; the preview shows the rows as the mapping reads them; the
 * dataset remembers the mapping; and an export writes the rows back into
 * the source's own schema, unchanged rows byte for byte.
 */

const screenshots = join(import.meta.dirname, 'screenshots');
/** ftfy's test cases (MIT, shipped in resources/): label, comment, original, fixed, fixed-encoding, expect. */
const FTFY = join(import.meta.dirname, '..', 'resources', 'datasets', 'ftfy_mojibake_cases.jsonl');
/** OpenAssistant's first 100 English trees (Apache-2.0), shipped in resources/. */
const OASST = join(import.meta.dirname, '..', 'resources', 'datasets', 'oasst_en_100_trees.jsonl');
const dir = workDir();

test.use({ viewport: { width: 1280, height: 720 } });

/** Opens the Datasets screen, drops the file, and returns the import dialog once it is read. */
async function dropOnDatasets(page: Page, baseUrl: string, path: string): Promise<Locator> {
  await page.goto(`${baseUrl}/#/datasets`);
  await expect(page.getByRole('heading', { name: 'Datasets', level: 1 })).toBeVisible();
  await dropFile(page, path);
  const dialog = page.getByTestId('import-dialog');
  await expect(dialog).toContainText(`Import ${basename(path)}`);
  // (A preview waits its turn behind the server's other work under CI load: room for it.)
  await expect(dialog.getByTestId('mapping')).toBeVisible({ timeout: 15_000 });
  return dialog;
}

const roleInput = (dialog: Locator, role: string): Locator =>
  dialog.getByTestId('mapping').getByLabel(`Role ${role}`, { exact: true });

/** Types a role's field(s) and applies them (Enter, or leaving the box), then waits for the preview. */
async function setRole(
  dialog: Locator,
  role: string,
  value: string,
  how: 'Enter' | 'Tab' = 'Enter',
): Promise<void> {
  const input = roleInput(dialog, role);
  await input.fill(value);
  await input.press(how);
  // The preview maps the rows again (the fieldset is disabled meanwhile), then refills the box.
  // (A preview of an uploaded file waits its turn behind the server's other work: room for it.)
  await expect(dialog.getByTestId('mapping')).not.toHaveAttribute('disabled', { timeout: 15_000 });
  await expect(roleInput(dialog, role)).toBeEnabled();
  await expect(roleInput(dialog, role)).toHaveValue(value);
}

/** A built-in shape per task type, to start a mapping from when the Task type select fails. */
const SHAPE_OF: Record<string, string> = {
  text: 'text',
  multiple_choice: 'mmlu',
  question_answer: 'gsm8k',
  conversation: 'alpaca',
};

/**
 * Chooses a task type in the mapping editor, as a user correcting a wrong guess or shape does.
 * That it takes is checked softly: when it does not, the test goes on from the built-in shape of
 * that task type (the Shape select), whose fields the user then changes.
 */
async function chooseTaskType(dialog: Locator, taskType: string): Promise<void> {
  const select = dialog.getByTestId('mapping').getByLabel('Task type', { exact: true });
  if ((await select.inputValue()) === taskType) return;
  await select.selectOption(taskType);
  let took = true;
  try {
    await expect(select).toHaveValue(taskType, { timeout: 5_000 });
  } catch {
    took = false;
  }
  const alert = dialog.getByRole('alert');
  const why = (await alert.count()) ? await alert.first().innerText() : 'no message';
  expect.soft(took, `choosing "${taskType}" as the task type takes (${why})`).toBe(true);
  if (took) return;
  await dialog.getByLabel('Shape', { exact: true }).selectOption(SHAPE_OF[taskType] ?? '');
  await expect(select).toHaveValue(taskType);
}

/**
 * Makes the mapping the wanted one, by hand: the task type, the conversation's form, and each
 * role typed in. `guessed`: the guess (or the detected shape) should have made it already;
 * checked softly, so a bad guess is reported and the test goes on.
 */
async function mapByHand(
  dialog: Locator,
  taskType: string,
  roles: Record<string, string>,
  options: { guessed?: boolean; from?: 'messages' | 'prompt' } = {},
): Promise<void> {
  const mapping = dialog.getByTestId('mapping');
  const taskSelect = mapping.getByLabel('Task type', { exact: true });
  if (options.guessed) {
    await expect.soft(taskSelect, 'the guessed task type').toHaveValue(taskType);
    if ((await taskSelect.inputValue()) === taskType) {
      for (const [role, value] of Object.entries(roles)) {
        await expect.soft(roleInput(dialog, role), `the guessed ${role}`).toHaveValue(value);
      }
    }
  }
  await chooseTaskType(dialog, taskType);
  if (options.from) {
    const from = mapping.getByLabel('Conversation from', { exact: true });
    if ((await from.inputValue()) !== options.from) await from.selectOption(options.from);
    await expect(from).toHaveValue(options.from);
  }
  for (const [role, value] of Object.entries(roles)) await setRole(dialog, role, value);
}

/** The dataset header's mapping, one `role ← source` a part, in any order. */
async function headerMapping(page: Page): Promise<string[]> {
  const text = await page.getByTestId('dataset-mapping').innerText();
  return text.split(' · ').sort();
}

const previewRows = (dialog: Locator): Locator =>
  dialog.getByTestId('mapped-preview').locator('tbody > tr:not(.raw-row)');

/** The turns of a preview row's conversation, as `role: text`. */
async function turnsOf(row: Locator): Promise<string[]> {
  const turns = await row.locator('.preview-turns > div').allTextContents();
  return turns.map((turn) => turn.replace(/\s+/g, ' ').trim());
}

async function importShown(page: Page, dialog: Locator, rows: number): Promise<void> {
  const button = dialog.getByRole('button', { name: 'Import', exact: true });
  await expect(button).toBeEnabled();
  await button.click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(page.getByTestId('row-count')).toHaveText(`${rows} rows`);
}

async function runOperation(page: Page, operation: 'Audit' | 'Fix'): Promise<void> {
  await page.getByLabel('Operation').selectOption({ label: operation });
  await page.getByRole('button', { name: `Start ${operation.toLowerCase()}` }).click();
  await expect(page.getByTestId('run-status')).toContainText('done', { timeout: 60_000 });
}

function expectSameBytes(actual: Buffer, expected: Buffer, what: string): void {
  const difference = firstDifference(actual.toString('utf8'), expected.toString('utf8'));
  expect(difference, `${what}: ${difference ?? ''}`).toBeNull();
  expect(actual.equals(expected), `${what}: the bytes`).toBe(true);
}

/**
 * Accepts every fix of the dataset with "Accept all shown" over the changed rows; returns how many.
 * `rows`: the dataset's row count (some of its rows, not all, have a fix).
 */
async function acceptAllFixes(page: Page, rows: number): Promise<number> {
  await page.getByLabel('changed').check();
  // the filter is applied once the count is no longer the whole dataset's
  await expect(page.getByTestId('row-count')).not.toHaveText(`${rows} rows`);
  await expect(page.getByTestId('row-count')).not.toHaveText('0 rows');
  const changed = Number((await page.getByTestId('row-count').innerText()).split(' ')[0]);
  expect(changed).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Accept all shown' }).click();
  await expect(page.getByRole('group', { name: 'Confirm' })).toContainText(
    `${changed} ${changed === 1 ? 'row' : 'rows'}`,
  );
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(page.getByTestId('bulk-result')).toContainText(`${changed}`);
  await expect(page.getByTestId('bulk-result')).toContainText('accepted');
  await page.getByLabel('changed').uncheck();
  return changed;
}

test.describe('field mapping', () => {
  test("ftfy's cases: text guessed from `original`, 111 rows, the audit fails the mojibake", async ({
    page,
    svc,
  }) => {
    const cases = readFileSync(FTFY, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(cases).toHaveLength(111);
    const dialog = await dropOnDatasets(page, svc.baseUrl, FTFY);
    await expect(dialog.getByTestId('detected')).toContainText('no built-in shape detected');
    const mapping = dialog.getByTestId('mapping');
    await expect(mapping).toContainText('guessed from the field names');
    await expect(mapping.getByLabel('Task type', { exact: true })).toHaveValue('text');
    await expect(roleInput(dialog, 'text')).toHaveValue('original');

    // the file's fields, listed with what they hold
    await mapping.locator('details.source-fields > summary').click();
    const fields = dialog.getByTestId('source-fields');
    await expect(fields).toBeVisible();
    expect((await fields.locator('code').allTextContents()).sort()).toEqual(
      ['comment', 'expect', 'fixed', 'fixed-encoding', 'label', 'original'].sort(),
    );
    await expect(fields.getByRole('row').filter({ hasText: 'original' })).toContainText('string');

    // the preview reads `original`: the first rows as ftfy wrote them
    const rows = previewRows(dialog);
    await expect(rows).toHaveCount(20);
    for (const i of [0, 1, 2]) {
      await expect(rows.nth(i)).toContainText(cases[i]?.original ?? '-');
      await expect(rows.nth(i)).not.toContainText(cases[i]?.label ?? '-');
    }
    await expect(dialog.getByTestId('import-blocked')).toHaveCount(0);

    // the source row on demand
    await rows.first().getByRole('button', { name: 'source' }).click();
    const raw = dialog.locator('.raw-source');
    await expect(raw).toContainText('"label": "Low-codepoint emoji"');
    await expect(raw).toContainText('"fixed": "He\'s Justin❤"');
    await page.screenshot({ path: join(screenshots, 'mapping-ftfy.png') });
    await rows.first().getByRole('button', { name: 'source' }).click();
    await expect(raw).toHaveCount(0);

    await importShown(page, dialog, 111);
    await expect(page.getByTestId('dataset-mapping')).toHaveText('text ← original');

    await runOperation(page, 'Audit');
    await page.getByLabel('Failed check').selectOption('*');
    await expect(page.getByTestId('row-count')).not.toHaveText('111 rows');
    const failed = Number((await page.getByTestId('row-count').innerText()).split(' ')[0]);
    test.info().annotations.push({ type: 'failed rows', description: String(failed) });
    // 83 of the 111 originals differ from ftfy's fix; most of those must fail, and not every row.
    const mojibake = cases.filter((c) => c.original !== c.fixed).length;
    expect(failed).toBeGreaterThanOrEqual(Math.floor(mojibake / 2));
    expect(failed).toBeLessThan(cases.length);
    // the first case ("He's Justinâ¤") is among them
    await page.getByLabel('Search', { exact: true }).fill('Justin');
    await expect(page.getByTestId('row-count')).toHaveText('1 row');
    await expect(page.getByTestId('grid-row').first()).toContainText('Justin');
  });

  test('an MMLU-style CSV: choices from columns A,B,C,D, letter answers, the right choice marked', async ({
    page,
    svc,
  }) => {
    const path = join(dir, 'mmlu-letters.csv');
    writeFileSync(path, mmluCsv());
    const dialog = await dropOnDatasets(page, svc.baseUrl, path);
    // Not GSM8K (question + answer): the choice columns make it multiple choice, guessed.
    await expect(dialog.getByTestId('detected')).toContainText('no built-in shape detected');
    await mapByHand(
      dialog,
      'multiple_choice',
      { context: 'question', choices: 'A,B,C,D', answer: 'answer' },
      { guessed: true },
    );
    const form = dialog.getByTestId('mapping').getByLabel('Answer form', { exact: true });
    await expect(form).toHaveValue('letter');
    await expect(form.locator('option:checked')).toHaveText('letter (A = first choice)');

    const rows = previewRows(dialog);
    await expect(rows).toHaveCount(MMLU_ROWS.length);
    await expect(dialog.getByTestId('mapped-preview').locator('.error-text')).toHaveCount(0);
    for (const [i, source] of MMLU_ROWS.entries()) {
      const row = rows.nth(i);
      // the stem, whole (commas, quotes and the line break inside the cell included)
      await expect.poll(() => row.locator('td').nth(1).textContent()).toBe(source.question);
      const choices = row.locator('.preview-choices > li');
      await expect(choices).toHaveText(
        [source.A, source.B, source.C, source.D].map(marked(source)),
      );
      await expect(row.locator('.preview-choices > li.labelled')).toHaveCount(1);
      await expect(row.locator('.preview-choices > li.labelled')).toHaveText(
        `${source[source.answer]} ✓`,
      );
    }
    await page.screenshot({ path: join(screenshots, 'mapping-mmlu-csv.png') });

    await importShown(page, dialog, MMLU_ROWS.length);
    await expect(page.getByTestId('dataset-mapping')).toContainText('choices ← A + B + C + D');
    await expect(page.getByTestId('dataset-mapping')).toContainText('answer ← answer (letter)');
  });

  test('a Dolly-style file: prompt from instruction and context, response from response', async ({
    page,
    svc,
  }) => {
    const path = writeJsonl(dir, 'dolly-like.jsonl', DOLLY_ROWS);
    const dialog = await dropOnDatasets(page, svc.baseUrl, path);
    await mapByHand(
      dialog,
      'conversation',
      { prompt: 'instruction,context', response: 'response' },
      { guessed: true, from: 'prompt' },
    );
    const rows = previewRows(dialog);
    await expect(rows).toHaveCount(DOLLY_ROWS.length);
    for (const [i, source] of DOLLY_ROWS.entries()) {
      const prompt = source.context
        ? `${source.instruction} ${source.context}` // joined by a blank line, which the text shows as space
        : source.instruction;
      expect(await turnsOf(rows.nth(i))).toEqual([
        `user: ${prompt}`,
        `assistant: ${source.response}`,
      ]);
    }
    // the prompt of a row with a context: instruction, a blank line, the context
    const firstPrompt = rows.first().locator('.preview-turns > div').first().locator('span');
    await expect
      .poll(() => firstPrompt.textContent())
      .toBe(`${DOLLY_ROWS[0]?.instruction}\n\n${DOLLY_ROWS[0]?.context}`);
    // the category is no role: it stays as metadata
    await expect(dialog.getByTestId('mapped-preview')).not.toContainText('closed_qa');

    await importShown(page, dialog, DOLLY_ROWS.length);
    expect(await headerMapping(page)).toEqual([
      'prompt ← instruction + context',
      'response ← response',
    ]);
  });

  test('a ShareGPT-like file with its own keys and role names, mapped by hand', async ({
    page,
    svc,
  }) => {
    const path = writeJsonl(dir, 'dialogs.jsonl', DIALOG_ROWS);
    const dialog = await dropOnDatasets(page, svc.baseUrl, path);
    // The guess finds the messages array and the keys of its turns, not what `bot` stands for.
    await mapByHand(
      dialog,
      'conversation',
      { messages: 'dialog', role_key: 'speaker', content_key: 'utterance' },
      { guessed: true, from: 'messages' },
    );
    // The user maps the turns by hand: without the turn keys no row maps...
    await setRole(dialog, 'role_key', '');
    await setRole(dialog, 'content_key', '', 'Tab');
    const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
    await expect(importButton).toBeDisabled();
    await expect(dialog.getByTestId('import-blocked')).toContainText('maps none');
    // ...with them and the file's role names, every row does.
    await setRole(dialog, 'role_key', 'speaker');
    await setRole(dialog, 'content_key', 'utterance', 'Tab');
    await setRole(dialog, 'roles', 'human:user,bot:assistant');
    await expect(dialog.getByTestId('mapping').getByLabel('Conversation from')).toHaveValue(
      'messages',
    );

    const rows = previewRows(dialog);
    await expect(rows).toHaveCount(DIALOG_ROWS.length);
    await expect(dialog.getByTestId('mapped-preview').locator('.error-text')).toHaveCount(0);
    for (const [i, source] of DIALOG_ROWS.entries()) {
      const expected = source.dialog.map(
        (turn) => `${turn.speaker === 'human' ? 'user' : 'assistant'}: ${turn.utterance}`,
      );
      await expect.poll(() => turnsOf(rows.nth(i))).toEqual(expected);
    }
    await page.screenshot({ path: join(screenshots, 'mapping-sharegpt.png') });

    await importShown(page, dialog, DIALOG_ROWS.length);
    expect(await headerMapping(page)).toEqual([
      'content_key ← utterance',
      'messages ← dialog',
      'role_key ← speaker',
      'roles ← human→user, bot→assistant',
    ]);
  });

  test('a nested file: question and answer from meta.question and meta.answer', async ({
    page,
    svc,
  }) => {
    const path = writeJsonl(dir, 'nested.jsonl', NESTED_ROWS);
    const dialog = await dropOnDatasets(page, svc.baseUrl, path);
    await mapByHand(
      dialog,
      'question_answer',
      { question: 'meta.question', answer: 'meta.answer' },
      { guessed: true },
    );
    const preview = dialog.getByTestId('mapped-preview');
    await expect(preview.locator('thead th')).toHaveText(['Row', 'question', 'answer', '']);
    const rows = previewRows(dialog);
    await expect(rows).toHaveCount(NESTED_ROWS.length);
    for (const [i, source] of NESTED_ROWS.entries()) {
      await expect(rows.nth(i).locator('td').nth(1)).toHaveText(source.meta.question);
      await expect(rows.nth(i).locator('td').nth(2)).toHaveText(source.meta.answer);
    }
    await importShown(page, dialog, NESTED_ROWS.length);
    expect(await headerMapping(page)).toEqual(['answer ← meta.answer', 'question ← meta.question']);
  });

  test('a role typed and Import pressed at once imports with that role', async ({ page, svc }) => {
    const dialog = await dropOnDatasets(page, svc.baseUrl, FTFY);
    await expect(roleInput(dialog, 'text')).toHaveValue('original');
    // Typed, not applied (no Enter, no Tab): pressing Import applies it, then imports.
    await roleInput(dialog, 'text').fill('fixed');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });
    await expect(page.getByTestId('row-count')).toHaveText('111 rows');
    await expect(page.getByText('text ← fixed')).toBeVisible();
  });

  test('a mapping that maps no row turns Import off and says why', async ({ page, svc }) => {
    const path = writeJsonl(dir, 'unmappable.jsonl', NESTED_ROWS);
    const dialog = await dropOnDatasets(page, svc.baseUrl, path);
    const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
    await expect(importButton).toBeEnabled();
    await dialog
      .getByTestId('mapping')
      .getByLabel('Task type', { exact: true })
      .selectOption('text');
    await setRole(dialog, 'text', 'nope');

    await expect(importButton).toBeDisabled();
    const blocked = dialog.getByTestId('import-blocked');
    await expect(blocked).toContainText(
      `The mapping maps none of the first ${NESTED_ROWS.length} rows`,
    );
    await expect(blocked).toContainText('nope');
    // every preview row says why it does not map
    const errors = dialog.getByTestId('mapped-preview').locator('tbody .error-text');
    await expect(errors).toHaveCount(NESTED_ROWS.length);
    await expect(errors.first()).toContainText('nope');

    // a field that exists turns it back on
    await setRole(dialog, 'text', 'meta.question', 'Tab');
    await expect(blocked).toHaveCount(0);
    await expect(importButton).toBeEnabled();
    await expect(previewRows(dialog).first()).toContainText(NESTED_ROWS[0]?.meta.question ?? '-');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('a file with no text (ids, scores, one-word labels): nothing guessed, the text asked for', async ({
    page,
    svc,
  }) => {
    // The shape of ../shared's alpaca_pairs_index.jsonl: which rows of two files match.
    const rows = Array.from({ length: 12 }, (_, line) => ({
      line,
      original_index: 2479 - line * 17,
      cleaned_index: line * 3,
      match: line % 3 === 0 ? 'fuzzy' : 'exact',
      similarity: line % 3 === 0 ? 0.655 : 1,
    }));
    const dialog = await dropOnDatasets(
      page,
      svc.baseUrl,
      writeJsonl(dir, 'pairs_index.jsonl', rows),
    );
    const importButton = dialog.getByRole('button', { name: 'Import', exact: true });
    // No field taken for the text: the box is empty, and Import says what it waits for.
    await expect(roleInput(dialog, 'text')).toHaveValue('');
    await expect(dialog.getByTestId('mapping')).not.toContainText('guessed from the field names');
    await expect(dialog.getByTestId('mapping-incomplete')).toHaveText(
      'Not mapped yet: the field that holds the text',
    );
    await expect(importButton).toBeDisabled();
    await expect(dialog.getByTestId('import-blocked')).toContainText(
      'The mapping is not complete: the field that holds the text.',
    );
    await page.screenshot({ path: join(screenshots, 'mapping-no-text.png') });
    // The person may still choose a label as the text: then it imports.
    await setRole(dialog, 'text', 'match');
    await expect(importButton).toBeEnabled();
    await expect(previewRows(dialog).first()).toContainText('fuzzy');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('export round trip of ftfy: untouched lines byte for byte, fixes only in `original`', async ({
    page,
    svc,
  }) => {
    const source = readFileSync(FTFY);
    const dialog = await dropOnDatasets(page, svc.baseUrl, FTFY);
    await expect(roleInput(dialog, 'text')).toHaveValue('original');
    await importShown(page, dialog, 111);

    expectSameBytes(await exportAs(page, 'jsonl'), source, 'exported before any run');
    await runOperation(page, 'Fix');
    expectSameBytes(await exportAs(page, 'jsonl'), source, 'exported with fixes not accepted');

    const accepted = await acceptAllFixes(page, 111);
    const exported = (await exportAs(page, 'jsonl')).toString('utf8');
    const sourceLines = source.toString('utf8').split('\n');
    const lines = exported.split('\n');
    expect(lines).toHaveLength(sourceLines.length);
    expect(lines.at(-1), 'a final line end').toBe('');
    expect(exported).not.toContain('\r');
    let changed = 0;
    for (const [i, line] of lines.entries()) {
      const before = sourceLines[i] ?? '';
      if (line === before) continue;
      changed++;
      const was = JSON.parse(before) as Record<string, unknown>;
      const now = JSON.parse(line) as Record<string, unknown>;
      expect(Object.keys(now), `line ${i + 1}: its keys, in order`).toEqual(Object.keys(was));
      for (const key of Object.keys(was)) {
        if (key !== 'original') expect(now[key], `line ${i + 1}: ${key}`).toEqual(was[key]);
      }
      expect(now.original, `line ${i + 1}: original`).not.toEqual(was.original);
      // the rest of the line is as it was, spacing included
      const encoded = JSON.stringify(was.original);
      if (before.includes(encoded)) {
        expect(line.replace(JSON.stringify(now.original), '<original>')).toBe(
          before.replace(encoded, '<original>'),
        );
      }
    }
    expect(changed, 'the lines changed are the rows accepted').toBe(accepted);
    const first = JSON.parse(lines[0] ?? '{}') as { original: string };
    expect(first.original.normalize('NFC')).toBe("He's Justin❤");
  });

  test('export round trip of an MMLU-style CSV: untouched records byte for byte, fixes in their cells', async ({
    page,
    svc,
  }) => {
    const text = mmluCsv();
    const path = join(dir, 'mmlu-roundtrip.csv');
    writeFileSync(path, text);
    const source = readFileSync(path);
    const dialog = await dropOnDatasets(page, svc.baseUrl, path);
    await mapByHand(dialog, 'multiple_choice', {
      context: 'question',
      choices: 'A,B,C,D',
      answer: 'answer',
    });
    await expect(dialog.getByTestId('mapping').getByLabel('Answer form')).toHaveValue('letter');
    await importShown(page, dialog, MMLU_ROWS.length);

    expectSameBytes(await exportAs(page, 'csv'), source, 'exported before any run');
    await runOperation(page, 'Fix');
    expectSameBytes(await exportAs(page, 'csv'), source, 'exported with fixes not accepted');

    const accepted = await acceptAllFixes(page, MMLU_ROWS.length);
    const exported = (await exportAs(page, 'csv')).toString('utf8');
    expect(exported.endsWith('\n'), 'a final line end').toBe(true);
    expect(exported).not.toContain('\r');
    const before = parseCsv(text);
    const after = parseCsv(exported);
    expect(after).toHaveLength(before.length);
    expect(after[0]?.raw, 'the header').toBe(before[0]?.raw);
    let changed = 0;
    for (const [i, row] of MMLU_ROWS.entries()) {
      const was = before[i + 1];
      const now = after[i + 1];
      if (!was || !now) throw new Error(`record ${i + 1} is missing`);
      if (now.raw === was.raw) continue;
      changed++;
      expect(now.cells, `record ${i + 1}: its cells`).toHaveLength(MMLU_COLUMNS.length);
      for (const [c, column] of MMLU_COLUMNS.entries()) {
        const fixed = row.mojibake?.[column];
        const cell = now.cells[c];
        if (fixed !== undefined) {
          expect(cell?.value.normalize('NFC'), `record ${i + 1}: ${column}, fixed`).toBe(
            fixed.normalize('NFC'),
          );
        } else {
          // a cell the fix did not touch: its value and its quoting as they were
          expect(cell?.value, `record ${i + 1}: ${column}`).toBe(was.cells[c]?.value);
          expect(cell?.raw, `record ${i + 1}: ${column} as written`).toBe(was.cells[c]?.raw);
        }
      }
    }
    expect(changed, 'the records changed are the rows accepted').toBe(accepted);
    const withMojibake = MMLU_ROWS.filter((row) => row.mojibake).length;
    expect(changed, 'every row with mojibake was fixed').toBe(withMojibake);
  });

  test('OpenAssistant trees along every path: a row per path, each tree exported once', async ({
    page,
    svc,
  }) => {
    const source = readFileSync(OASST);
    const dialog = await dropOnDatasets(page, svc.baseUrl, OASST);
    await expect(dialog.getByTestId('detected')).toContainText('detected: oasst');
    const paths = dialog.getByLabel('Conversations', { exact: true });
    await expect(paths).toHaveValue('best');
    await expect(previewRows(dialog).first()).not.toContainText('path');
    await paths.selectOption('all');
    await expect(previewRows(dialog).first()).toContainText('path 1 of 3');
    await expect(previewRows(dialog).nth(1)).toContainText('path 2 of 3');
    // the first tree's paths share its prompt and differ below it
    const first = await turnsOf(previewRows(dialog).first());
    const second = await turnsOf(previewRows(dialog).nth(1));
    expect(first[0]).toBe(second[0]);
    expect(first).not.toEqual(second);
    await page.screenshot({ path: join(screenshots, 'import-oasst-every-path.png') });
    await importShown(page, dialog, 626);
    await expect(page.getByText('a row per path of each tree')).toBeVisible();

    expectSameBytes(await exportAs(page, 'jsonl'), source, 'exported before any run');
    await runOperation(page, 'Fix');
    await acceptAllFixes(page, 626);
    const exported = (await exportAs(page, 'jsonl')).toString('utf8').split('\n');
    const sourceLines = source.toString('utf8').split('\n');
    expect(exported, 'one line per tree').toHaveLength(sourceLines.length);
    const changed = exported.filter((line, i) => line !== sourceLines[i]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(100);
    for (const line of changed) {
      const tree = JSON.parse(line) as { message_tree_id: string };
      const was = sourceLines.find((l) => l.includes(tree.message_tree_id)) ?? '';
      expect(Object.keys(tree)).toEqual(Object.keys(JSON.parse(was) as object));
    }
  });
});

/** A preview choice's text: the labelled one carries ` ✓`. */
const marked =
  (row: (typeof MMLU_ROWS)[number]) =>
  (choice: string, i: number): string =>
    'ABCD'[i] === row.answer ? `${choice} ✓` : choice;
