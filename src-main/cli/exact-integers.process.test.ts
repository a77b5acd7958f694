import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { svcProcess as svc, tempDirs } from './testing/cli-test-kit.ts';

/**
 * Integers past 2^53 (tweet and snowflake ids, 64-bit hashes) come out of
 * every CLI path with the digits they went in with: a double would write
 * 1234567890123456789 as 1234567890123456800. Real processes, the builtin
 * engine, 2 workers (the default here), so the rows cross threads.
 */

const tempDir = tempDirs('svc-cli-exact-');

const ROWS = 60;
/** Past 2^53, past 2^63 (beyond SQLite's integers too), negative. */
const idOf = (i: number): string => `${1234567890123456789n + BigInt(i) * 1_000_003n}`;
const HASH = '18446744073709551615';
const NEGATIVE = '-98765432109876543210';

/** Rows as JSON text (a double cannot hold their ids); every third needs a fix. */
function rowLines(): string[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const text =
      i % 3 === 0
        ? `Order ${i}: the the CafÃ© was was fine.`
        : `Order ${i} arrived on time and was fine.`;
    return `{"tweet_id":${idOf(i)},"text":${JSON.stringify(text)},"meta":{"hash":${HASH},"delta":${NEGATIVE},"ratio":0.5}}`;
  });
}

function expectExactIds(text: string): void {
  for (let i = 0; i < ROWS; i++) expect(text).toContain(`"tweet_id":${idOf(i)}`);
  expect(text.split(`"hash":${HASH}`)).toHaveLength(ROWS + 1);
  expect(text.split(`"delta":${NEGATIVE}`)).toHaveLength(ROWS + 1);
}

describe('integers past 2^53 through the CLI', () => {
  it('keep their digits in an audit, a refine and fixes written back to JSON and JSONL', async () => {
    const dir = tempDir();
    const input = join(dir, 'tweets.jsonl');
    writeFileSync(input, rowLines().join('\n') + '\n');
    const array = join(dir, 'tweets.json');
    writeFileSync(array, `[\n${rowLines().join(',\n')}\n]\n`);
    const [audit, refine, fix, fixLines] = await Promise.all([
      svc(dir, 'audit', input),
      svc(join(dir, 'b'), 'refine', input, '--out', join(dir, 'refined.jsonl')),
      svc(join(dir, 'c'), 'fix', array, '--write-back', '--out', join(dir, 'fixed.json')),
      svc(join(dir, 'd'), 'fix', input, '--write-back', '--out', join(dir, 'fixed.jsonl')),
    ]);
    expect(audit.code, audit.stderr).toBe(0);
    expectExactIds(audit.stdout);
    expect(refine.code, refine.stderr).toBe(0);
    expectExactIds(readFileSync(join(dir, 'refined.jsonl'), 'utf8'));
    expect(fix.code, fix.stderr).toBe(0);
    const fixed = readFileSync(join(dir, 'fixed.json'), 'utf8');
    expectExactIds(fixed.replaceAll(/":\s+/g, '":'));
    // The fix did repair the texts it had to, so those rows were written again.
    expect(fixed).not.toContain('CafÃ©');
    expect(fixed).toContain('Café');
    expect(fixLines.code, fixLines.stderr).toBe(0);
    const fixedLines = readFileSync(join(dir, 'fixed.jsonl'), 'utf8');
    expectExactIds(fixedLines);
    expect(fixedLines).toContain('Café');
  });

  it('keep their digits in a JSON cell of a CSV written back', async () => {
    const dir = tempDir();
    const input = join(dir, 'tweets.csv');
    const cell = (i: number): string => `"{""hash"":${HASH},""id"":${idOf(i)}}"`;
    writeFileSync(
      input,
      'tweet_id,text,meta\n' +
        Array.from(
          { length: ROWS },
          (_, i) => `${idOf(i)},Order ${i}: the the CafÃ© was was fine.,${cell(i)}`,
        ).join('\n') +
        '\n',
    );
    const out = join(dir, 'fixed.csv');
    const run = await svc(dir, 'fix', input, '--write-back', '--out', out);
    expect(run.code, run.stderr).toBe(0);
    const written = readFileSync(out, 'utf8');
    expect(written).not.toContain('CafÃ©');
    for (let i = 0; i < ROWS; i++) {
      expect(written).toContain(`${idOf(i)},`);
      expect(written).toContain(cell(i));
    }
  });

  it('keep their digits through shards and svc merge', async () => {
    const dir = tempDir();
    const input = join(dir, 'tweets.jsonl');
    writeFileSync(input, rowLines().join('\n') + '\n');
    const parts = [0, 1].map((i) => join(dir, `part-${i}.jsonl`));
    const runs = await Promise.all(
      parts.map((part, i) =>
        svc(join(dir, `node-${i}`), 'audit', input, '--shard', `${i}/2`, '--out', part),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const merged = await svc(dir, 'merge', join(dir, 'merged.jsonl'), ...parts);
    expect(merged.code, merged.stderr).toBe(0);
    expectExactIds(readFileSync(join(dir, 'merged.jsonl'), 'utf8'));
  });
});
