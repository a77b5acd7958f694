import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/errors.ts';
import { tempDirs } from './testing/cli-test-kit.ts';
import { datasets, merge, shardRuns, singleRun } from './testing/shard-kit.ts';

/**
 * For any N and any file, the N shards merged equal one run over the file,
 * output and report byte for byte: files drawn from real rows (GSM8K
 * questions, mojibake texts the fix repairs, as samples), with exact copies,
 * reworded copies with another answer (near duplicates, label conflicts) and
 * unreadable lines anywhere.
 */

const tempDir = tempDirs('svc-shard-prop-');
const lines = (name: string): string[] =>
  readFileSync(join(datasets, name), 'utf8').split('\n').filter(Boolean).slice(0, 30);
const gsm8k = lines('gsm8k_test_first300.jsonl');
const texts = lines('ftfy_mojibake_cases.jsonl').map((line) =>
  JSON.stringify({ task_type: 'text', text: (JSON.parse(line) as { original: string }).original }),
);

/** A GSM8K row with its first word changed and another final answer. */
function reworded(line: string): string {
  const row = JSON.parse(line) as { question: string; answer: string };
  return JSON.stringify({
    question: row.question.replace(/^\S+/, 'Then'),
    answer: row.answer.replace(/#### .*$/, '#### 7'),
  });
}

const row = fc.oneof(
  { weight: 5, arbitrary: fc.nat(gsm8k.length - 1).map((i) => gsm8k[i] as string) },
  { weight: 2, arbitrary: fc.nat(texts.length - 1).map((i) => texts[i] as string) },
  { weight: 1, arbitrary: fc.nat(gsm8k.length - 1).map((i) => reworded(gsm8k[i] as string)) },
  { weight: 1, arbitrary: fc.constantFrom('{"question": "cut', '[1, 2]', 'not json') },
);

const outcome = async <T>(run: () => Promise<T>): Promise<T | string> => {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError) return `error: ${error.message}`;
    throw error;
  }
};

describe('shards and svc merge', () => {
  it('equal one run over the file for any N and any file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('audit' as const, 'fix' as const, 'refine' as const),
        fc.array(row, { maxLength: 28 }),
        async (of, operation, rows) => {
          const dir = tempDir();
          const input = join(dir, 'in.jsonl');
          // The first line is a GSM8K row, so that the shape is detected alike in every file.
          writeFileSync(input, [gsm8k[0], ...rows].join('\n') + '\n');
          const run = { operation, input, dir };
          const single = await outcome(() => singleRun(run, true));
          const merged = await outcome(async () => merge(dir, await shardRuns(run, of)));
          if (typeof single === 'string' || typeof merged === 'string') {
            expect(merged).toBe(single);
            return;
          }
          expect(merged.out).toBe(single.out);
          expect(merged.report).toBe(single.report);
        },
      ),
      { numRuns: 12 },
    );
  }, 240_000);

  it('equal one run when a row is read along every path (OpenAssistant trees)', async () => {
    const dir = tempDir();
    const input = join(dir, 'trees.jsonl');
    writeFileSync(input, lines('oasst_en_100_trees.jsonl').slice(0, 12).join('\n') + '\n');
    const run = { operation: 'fix' as const, input, dir, flags: ['--oasst-paths', 'all'] };
    const single = await singleRun(run, true);
    const merged = await merge(dir, await shardRuns(run, 3));
    expect(single.out.split('\n').length).toBeGreaterThan(13); // more paths than trees
    expect(merged.out).toBe(single.out);
    expect(merged.report).toBe(single.report);
  }, 120_000);
});
