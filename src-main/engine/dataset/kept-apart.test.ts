import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { DuplicateIndex, duplicateWords, type KeptApart } from './duplicates.ts';

/**
 * Pairs a person kept apart ("Keep both"): the copy leaves the group of the
 * row it seemed to repeat, a group left with one row is none, and the other
 * copies of that row stay in its group.
 */

const text = (t: string): Sample => ({ task_type: 'text', text: t });

async function groupsOf(samples: Sample[], apart?: KeptApart) {
  const index = new DuplicateIndex();
  for (const sample of samples) index.add(sample);
  return index.finish(
    (rows, deliver) => {
      for (const row of rows) deliver(row, duplicateWords(samples[row] as Sample));
    },
    undefined,
    undefined,
    apart,
  );
}

describe('pairs kept apart', () => {
  const samples = [
    text('A cat sat on the mat by the door.'),
    text('Something else entirely, about the weather.'),
    text('a cat sat on the mat by the door'),
    text('A CAT sat on the mat, by the door!'),
    text('something else entirely about the weather'),
  ];

  it('without any, every copy is grouped with its first row', async () => {
    const { groups } = await groupsOf(samples);
    expect(groups.map((g) => g.rows)).toEqual([
      [0, 2, 3],
      [1, 4],
    ]);
  });

  it('a kept pair leaves its copy out; a group of one is none; the issues follow', async () => {
    const apart: KeptApart = (first, row) =>
      (first === 0 && row === 2) || (first === 1 && row === 4);
    const { groups, issues } = await groupsOf(samples, apart);
    expect(groups.map((g) => g.rows)).toEqual([[0, 3]]);
    expect(issues.has(2)).toBe(false);
    expect(issues.has(4)).toBe(false);
    expect(issues.get(3)?.[0]).toMatchObject({ code: 'exact_duplicate', ref: 0 });
  });
});
