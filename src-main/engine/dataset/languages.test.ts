import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countLanguages } from './languages-count.ts';
import { identifyLanguages, startLanguageIdentification } from './languages.ts';

const TEXTS = [
  'The weather was fine and the children played outside until dark.',
  'Le chat dort sur le canapé pendant que la pluie tombe dehors.',
  'Der Zug kam pünktlich an, und alle Fahrgäste stiegen schnell aus.',
  'El mercado abre temprano y los vecinos compran pan fresco cada día.',
  'The committee approved the budget after a long discussion on Tuesday.',
];

describe('identifyLanguages', () => {
  it('counts what the identifier counts here, in a worker asked then or started ahead', async () => {
    const here = await countLanguages(TEXTS);
    expect(here.map(([language]) => language).sort()).toEqual(['de', 'en', 'es', 'fr']);
    expect(await identifyLanguages(TEXTS)).toEqual(here);
    startLanguageIdentification();
    expect(await identifyLanguages(TEXTS)).toEqual(here);
    // The next is asked of a new worker again: one started ahead serves once.
    expect(await identifyLanguages(TEXTS.slice(0, 2))).toEqual(
      await countLanguages(TEXTS.slice(0, 2)),
    );
  }, 30_000);

  it('keeps no process alive with a worker started ahead and never asked', () => {
    // A script of its own: a worker inherits `--input-type` from `node -e` and cannot start.
    const script = join(mkdtempSync(join(tmpdir(), 'svc-languages-')), 'ahead.mjs');
    writeFileSync(
      script,
      `import { startLanguageIdentification } from ${JSON.stringify(
        new URL('./languages.ts', import.meta.url).href,
      )};\n` +
        `startLanguageIdentification();\n` +
        // Long enough for the worker to be up and waiting when the script's own work ends.
        `await new Promise((resolve) => setTimeout(resolve, 1500));\n`,
    );
    const started = Date.now();
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 15_000 });
    expect(child.status, child.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
