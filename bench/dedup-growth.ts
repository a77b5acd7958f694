import type { Sample } from '../src-shared/schemas/sample.ts';
import { findDuplicates } from '../src-main/engine/dataset/duplicates.ts';
import { gsm8k } from '../src-main/engine/testing/real-data.ts';

/** Prose words a copy ends with, two of them: 3,600 variants of each question. */
const FILLERS = (
  'please kindly now again also then today here there still just quite really simply ' +
  'carefully quickly slowly clearly briefly fully exactly roughly nearly mostly gladly ' +
  'honestly plainly openly calmly gently firmly warmly freely lightly boldly softly ' +
  'neatly wisely fairly justly truly surely barely hardly largely partly greatly deeply ' +
  'widely highly closely loosely evenly newly oddly rarely'
).split(' ');

/** The two shapes of repeated questions the part times. */
const SHAPES: [string, (question: string, i: number, rounds: number) => string][] = [
  // Siblings: a number tells them apart, so no group (numbers are content).
  ['a numbered suffix', (question, _i, round) => `${question} (${round + 1})`],
  // Copies: two words of prose added; 300 groups of near duplicates.
  [
    'two prose words added',
    (question, i) =>
      `${question} ${FILLERS[i % FILLERS.length] as string} ${
        FILLERS[Math.floor(i / FILLERS.length) % FILLERS.length] as string
      }`,
  ],
];

/**
 * Whether near-duplicate grouping grows with the data and no faster, on the
 * data that once made it quadratic: GSM8K's questions repeated over and over
 * (the shape of templated and synthetic data), at several sizes, on one
 * core. Printed: the time per row at each size and its ratio to the smallest
 * size's (linear: about 1).
 */
export async function benchDedupGrowth(sizes: readonly number[]): Promise<void> {
  for (const [shape, variant] of SHAPES) await growth(sizes, shape, variant);
}

async function growth(
  sizes: readonly number[],
  shape: string,
  variant: (question: string, i: number, round: number) => string,
): Promise<void> {
  const questions = gsm8k().map((s) => s.question);
  console.log(
    `\n## dataset checks: near-duplicate grouping as the data grows (GSM8K's ${questions.length} ` +
      `questions repeated, ${shape}; one core)`,
  );
  console.log('rows          groups   seconds   µs per row   per row vs the smallest');
  let first: number | undefined;
  for (const rows of sizes) {
    const samples: Sample[] = Array.from({ length: rows }, (_, i) => ({
      task_type: 'text',
      text: variant(
        questions[i % questions.length] as string,
        Math.floor(i / questions.length),
        Math.floor(i / questions.length),
      ),
    }));
    const started = performance.now();
    const result = await findDuplicates(samples);
    const seconds = (performance.now() - started) / 1000;
    const perRow = (seconds * 1e6) / rows;
    first ??= perRow;
    console.log(
      `${rows.toLocaleString('en-US').padEnd(12)}${String(result.groups.length).padStart(8)}` +
        `${seconds.toFixed(1).padStart(10)}${perRow.toFixed(1).padStart(13)}` +
        `${(perRow / first).toFixed(2)}x`.padStart(26) +
        (result.truncated ? '   (candidates capped)' : ''),
    );
  }
}
