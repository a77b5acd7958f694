import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures.ts';
import { exportAs, importThroughPicker, openJsonEditor, saveEdit } from './support/screens.ts';
import { workDir } from './support/datasets.ts';

/**
 * Ids past 2^53 as a person meets them in the app: shown, edited as JSON and
 * exported with every digit (the browser's JSON.parse would make
 * 1234567890123456789 into 1234567890123456800).
 */

const dir = workDir();
const idOf = (i: number): string => `${1234567890123456789n + BigInt(i)}`;

test.use({ viewport: { width: 1280, height: 720 } });

test('an id past 2^53 is shown, edited and exported with every digit', async ({ page, svc }) => {
  const path = join(dir, 'tweets.json');
  const rows = Array.from(
    { length: 4 },
    (_, i) => `{"task_type":"text","text":"Tweet ${i} was fine.","tweet_id":${idOf(i)}}`,
  );
  writeFileSync(path, `[${rows.join(',\n')}]\n`);
  await importThroughPicker(page, svc.baseUrl, path, 4);

  const editor = await openJsonEditor(page, 2);
  const { json } = editor;
  await expect(json).toHaveValue(new RegExp(`"tweet_id": ${idOf(2)}\\b`));
  await json.fill(
    (await json.inputValue()).replace('Tweet 2 was fine.', 'Tweet 2, edited by hand.'),
  );
  await saveEdit(editor);
  await page.keyboard.press('a');
  await page.keyboard.press('Escape');

  const exported = (await exportAs(page, 'json')).toString('utf8').replaceAll(/":\s+/g, '":');
  for (let i = 0; i < 4; i++) expect(exported).toContain(`"tweet_id":${idOf(i)}`);
  expect(exported).toContain('Tweet 2, edited by hand.');
});
