import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { findDuplicates } from './duplicates.ts';

/**
 * Minimal pairs: two rows one word apart whose labels differ by design
 * (Winogrande and WSC, contrast sets, counterfactual data, the hypotheses of
 * one NLI premise). In a dataset made of them they are siblings, never label
 * conflicts; a pair or two among other rows stays a conflict to look at.
 */

const mc = (context: string, choices: string[], answer_index: number): Sample => ({
  task_type: 'multiple_choice',
  context,
  choices,
  answer_index,
  style: 'continuation',
});

const THINGS = [
  ['trophy', 'suitcase'],
  ['piano', 'doorway'],
  ['sofa', 'elevator'],
  ['painting', 'frame'],
  ['bicycle', 'garage'],
  ['cake', 'oven'],
  ['book', 'drawer'],
  ['lamp', 'box'],
  ['mattress', 'truck'],
  ['statue', 'crate'],
  ['guitar', 'case'],
  ['turkey', 'pot'],
  ['canoe', 'shed'],
  ['desk', 'office'],
  ['television', 'cabinet'],
  ['tree', 'pot'],
  ['laptop', 'bag'],
  ['carpet', 'hallway'],
  ['mirror', 'car'],
  ['fridge', 'kitchen'],
  ['harp', 'van'],
  ['boat', 'trailer'],
  ['poster', 'tube'],
  ['tent', 'backpack'],
  ['bed', 'bedroom'],
] as const;

/** Winogrande's twin sentences: "too large" names the thing, "too small" the container. */
const PEOPLE = ['Rebecca', 'Samuel', 'Maria', 'Kenji', 'Amara'];
const TRIES = [
  'tried to put',
  'could not squeeze',
  'failed to push',
  'wanted to fit',
  'gave up moving',
];

function twins(): Sample[] {
  return THINGS.flatMap(([thing, container], i) => {
    const who = PEOPLE[i % PEOPLE.length] as string;
    const tried = TRIES[Math.floor(i / PEOPLE.length) % TRIES.length] as string;
    const sentence = (size: string): string =>
      `${who} ${tried} the ${thing} into the ${container} on day ${i + 1}, but the ${thing} ` +
      `would not go in because the _ was far too ${size} for it.`;
    return [
      mc(sentence('large'), [thing, container], 0),
      mc(sentence('small'), [thing, container], 1),
    ];
  });
}

describe('minimal pairs', () => {
  it('takes a dataset of twin sentences for siblings: no duplicate, no label conflict', async () => {
    const samples = twins();
    const { groups, issues, templated } = await findDuplicates(samples);
    expect(groups).toEqual([]);
    expect([...issues]).toEqual([]);
    expect(templated?.rows).toBe(samples.length);
  });

  it('still takes a pair or two among other rows for a copy whose labels conflict', async () => {
    const samples = twins().filter((_, i) => i < 2 || i % 2 === 0);
    const { groups, issues } = await findDuplicates(samples);
    expect(groups).toEqual([expect.objectContaining({ rows: [0, 1], label_conflict: true })]);
    expect(issues.get(1)?.map((i) => i.code)).toEqual(['near_duplicate', 'label_conflict']);
  });

  it('still finds exact copies with conflicting labels in a dataset of minimal pairs', async () => {
    const samples = twins();
    const copy = { ...(samples[0] as Sample & { task_type: 'multiple_choice' }), answer_index: 1 };
    const { issues } = await findDuplicates([...samples, copy]);
    expect(issues.get(samples.length)?.map((i) => i.code)).toEqual([
      'exact_duplicate',
      'label_conflict',
    ]);
  });
});
