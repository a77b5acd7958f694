import { describe, expect, it } from 'vitest';
import type { Sample } from '../../../src-shared/schemas/sample.ts';
import { prng } from './prng.ts';
import { ShardLanguageSample } from './shard-language-sample.ts';
import { LANGUAGE_SAMPLE, StatisticsAccumulator } from './statistics.ts';

const SENTENCES = [
  'The weather was fine and the children played outside until dark.',
  'Le chat dort sur le canapé pendant que la pluie tombe dehors.',
  'Der Zug kam pünktlich an, und alle Fahrgäste stiegen schnell aus.',
  'El mercado abre temprano y los vecinos compran pan fresco cada día.',
];

/**
 * More samples than the language sample keeps (so its draws replace rows),
 * of every kind, some without a text to identify (a conversation with no
 * messages): those take no draw, and a shard that drew for them would keep
 * other rows than the run.
 */
function samples(count: number): Sample[] {
  const random = prng(7);
  return Array.from({ length: count }, (_, i): Sample => {
    const sentence = `${SENTENCES[Math.floor(random() * SENTENCES.length)]} ${i}`;
    switch (i % 5) {
      case 0:
        return { task_type: 'question_answer', question: sentence, answer: `${i}` };
      case 1:
        return { task_type: 'conversation', messages: [] };
      case 2:
        return {
          task_type: 'conversation',
          messages: [{ role: 'user', content: sentence }],
        };
      default:
        return { task_type: 'text', text: sentence };
    }
  });
}

/** Each shard draws the run's whole sample and identifies its own rows of it. */
async function shardLabels(all: readonly Sample[], of: number): Promise<[number, string][][]> {
  const owner = prng(11);
  const owners = all.map(() => Math.floor(owner() * of));
  const shards = Array.from({ length: of }, () => new ShardLanguageSample());
  all.forEach((sample, position) => {
    shards.forEach((shard, index) => shard.see(sample, position, owners[position] === index));
  });
  return Promise.all(shards.map((shard) => shard.labels()));
}

async function languagesOf(
  all: readonly Sample[],
  labels?: ReadonlyMap<number, string>,
): Promise<{ language: string; count: number }[]> {
  const accumulator = new StatisticsAccumulator();
  for (const sample of all) accumulator.add(sample);
  const { statistics } = await accumulator.finish(undefined, labels && Promise.resolve(labels));
  return statistics.languages.detected;
}

describe('ShardLanguageSample', () => {
  it("labels, across the shards, exactly the rows the run's sample keeps, each once", async () => {
    const all = samples(12_000);
    const byShard = await shardLabels(all, 3);
    const labelled = byShard.flat();
    expect(labelled).toHaveLength(LANGUAGE_SAMPLE);
    expect(new Set(labelled.map(([position]) => position)).size).toBe(LANGUAGE_SAMPLE);
    // Every shard has some: the sample is spread over them, not drawn by one.
    for (const labels of byShard) expect(labels.length).toBeGreaterThan(1000);

    // Marked, the shards' labels show whether the statistics counted them or identified again.
    const marked = new Map(labelled.map(([position, language]) => [position, `x-${language}`]));
    const counted = await languagesOf(all, marked);
    const identified = await languagesOf(all);
    expect(counted.map((d) => d.language).every((language) => language.startsWith('x-'))).toBe(
      true,
    );
    expect(counted.map((d) => ({ ...d, language: d.language.slice(2) }))).toEqual(identified);
  }, 60_000);

  it('is not used where a row of the sample has no label: the sample is identified again', async () => {
    const all = samples(6_000);
    const labelled = (await shardLabels(all, 2)).flat();
    const marked = new Map(labelled.slice(1).map(([position, l]) => [position, `x-${l}`]));
    const counted = await languagesOf(all, marked);
    expect(counted.some((d) => d.language.startsWith('x-'))).toBe(false);
    expect(counted).toEqual(await languagesOf(all));
  }, 60_000);
});
