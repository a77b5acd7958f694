import { countTokens } from 'gpt-tokenizer';
import type { Sample } from '../src-shared/schemas/sample.ts';
import { findDuplicates } from '../src-main/engine/dataset/duplicates.ts';
import { normalizeForDuplicates } from '../src-main/engine/dataset/keys.ts';
import { prng } from '../src-main/engine/dataset/prng.ts';
import { injectDuplicates } from '../src-main/engine/dataset/testing/inject.ts';
import { gsm8k, hellaswag, oasst } from '../src-main/engine/testing/real-data.ts';
import { mib } from './stats.ts';

/**
 * Near-duplicate detection at scale: `rows` text samples built from the
 * sentences of the real datasets (each row 3 to 6 sentences of 4 to 40 words drawn at random,
 * so rows are distinct the way a real corpus is, not copies with a counter),
 * with 1% of them copied in (exact, case and punctuation changes, one or two
 * words changed). Measured on one core: rows per second through the whole
 * `duplicates` check (signatures, LSH, verification), beside two peers on the
 * same texts in the same run: the cheapest exact dedup (a Set of normalised
 * texts) and the BPE tokenizer alone. Precision and recall are of the copies.
 */
export async function benchDedup(rows: number): Promise<void> {
  const sentences = [
    ...oasst().flatMap((c) => c.messages.map((m) => m.content)),
    ...gsm8k().map((s) => s.question),
    ...hellaswag().map((s) => s.context),
  ]
    .flatMap((text) => text.split(/(?<=[.!?])\s+/))
    // A 300-word code block in two rows would make them real near duplicates: sentences of
    // 4 to 40 words keep the corpus free of accidental ones, so precision measures the check.
    .filter((s) => {
      const words = s.split(/\s+/).length;
      return words >= 4 && words <= 40;
    });
  const random = prng(11);
  const base: Sample[] = [];
  for (let i = 0; i < rows; i++) {
    const count = 3 + Math.floor(random() * 4);
    const parts: string[] = [];
    for (let j = 0; j < count; j++) {
      parts.push(sentences[Math.floor(random() * sentences.length)] as string);
    }
    base.push({ task_type: 'text', text: parts.join(' ') });
  }
  const { samples, injected } = injectDuplicates(
    base,
    Math.round(rows / 100),
    ['exact', 'case', 'punctuation', 'one_word', 'two_words'],
    5,
  );
  const texts = samples.map((s) => (s as { text: string }).text);
  const chars = texts.reduce((n, t) => n + t.length, 0);
  console.log(
    `\n## dataset checks: near duplicates (${samples.length.toLocaleString('en-US')} text rows ` +
      `from ${sentences.length.toLocaleString('en-US')} real sentences, ${mib(chars)} of text, ` +
      `${injected.length.toLocaleString('en-US')} copies injected)`,
  );

  const time = async (run: () => unknown): Promise<number> => {
    const started = performance.now();
    await run();
    return (performance.now() - started) / 1000;
  };
  const setSeconds = await time(() => {
    const seen = new Set<string>();
    for (const text of texts) seen.add(normalizeForDuplicates(text));
    return seen.size;
  });
  const tokenizerSeconds = await time(() => {
    let tokens = 0;
    for (const text of texts) tokens += countTokens(text);
    return tokens;
  });
  const heapBefore = process.memoryUsage().heapUsed;
  let result: Awaited<ReturnType<typeof findDuplicates>> | undefined;
  const dedupSeconds = await time(async () => {
    result = await findDuplicates(samples);
  });
  const heapAfter = process.memoryUsage().heapUsed;
  if (!result) return;

  const flagged = new Set<number>();
  for (const [row, issues] of result.issues) {
    if (issues.some((i) => i.code !== 'label_conflict')) flagged.add(row);
  }
  const injectedRows = new Set(injected.map((i) => i.row));
  const found = injected.filter((i) => flagged.has(i.row)).length;
  const truePositives = [...flagged].filter((row) => injectedRows.has(row)).length;
  const rate = (seconds: number): string =>
    `${Math.round(samples.length / seconds).toLocaleString('en-US')} rows/s`;
  console.log(`duplicates check:  ${dedupSeconds.toFixed(1)} s, ${rate(dedupSeconds)}`);
  console.log(
    `  peer, exact dedup (Set of normalised texts): ${setSeconds.toFixed(1)} s, ${rate(setSeconds)} ` +
      `-> the check costs ${(dedupSeconds / setSeconds).toFixed(1)}x`,
  );
  console.log(
    `  peer, the tokenizer alone: ${tokenizerSeconds.toFixed(1)} s, ${rate(tokenizerSeconds)} ` +
      `-> the check costs ${(dedupSeconds / tokenizerSeconds).toFixed(2)}x`,
  );
  console.log(
    `  precision ${(truePositives / Math.max(1, flagged.size)).toFixed(3)} (${flagged.size} rows flagged), ` +
      `recall ${(found / injected.length).toFixed(3)} (${found} of ${injected.length} copies), ` +
      `${result.groups.length} groups${result.truncated ? ', candidates capped' : ''}; ` +
      `heap ${mib(Math.max(0, heapAfter - heapBefore))} more after`,
  );
}
