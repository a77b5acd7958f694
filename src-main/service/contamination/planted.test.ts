import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../../engine/contamination/benchmarks.ts';
import { PLANT_KINDS } from '../../engine/contamination/testing/plants.ts';
import { needsShared, sharedFile } from '../../engine/testing/shared-data.ts';
import { benchmarkIndex, benchmarkSets } from './benchmark-fingerprints.ts';
import { contaminationMatcher } from './matcher.ts';
import { benchmarkSources, hostRows, hostSamples, plantedFigures } from './testing/planted.ts';

/**
 * The shipped fingerprints against the benchmarks they were built from
 * (`../shared/benchmarks/`): items planted into real training rows every way
 * a copy gets there are found, with the right item; the real rows around
 * them are not.
 */

const benchmarkFiles = BENCHMARKS.map((b) => `benchmarks/${b.file}`);

describe('shipped benchmark fingerprints', () => {
  it('list every benchmark with its license and source, and load', () => {
    const index = benchmarkIndex();
    expect(index.map((e) => e.name)).toEqual(BENCHMARKS.map((b) => b.name));
    for (const entry of index) {
      expect(entry.license).not.toBe('');
      expect(entry.source).not.toBe('');
    }
    const sets = benchmarkSets('all');
    expect(sets.map((s) => s.items)).toEqual(index.map((e) => e.items));
    expect(benchmarkSets(['gsm8k', 'ifeval']).map((s) => s.name)).toEqual([
      'gsm8k/test',
      'ifeval/test',
    ]);
    expect(benchmarkSets('none')).toEqual([]);
  });

  it('match the hashing in force: the shipped GSM8K test rows are found, each as its item', () => {
    // resources/datasets holds GSM8K's first 300 test rows (MIT): no ../shared needed.
    const rows = readFileSync(
      join(import.meta.dirname, '../../../resources/datasets/gsm8k_test_first300.jsonl'),
      'utf8',
    )
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { question: string; answer: string });
    const matcher = contaminationMatcher({ benchmarks: ['gsm8k'] })!;
    rows.slice(0, 50).forEach((row, item) => {
      const [match] = matcher.match([
        { path: '/question', text: row.question },
        { path: '/answer', text: row.answer },
      ]);
      expect(match).toMatchObject({ set: 'gsm8k/test', item, question: 1, answer: 1 });
    });
  });

  const fresh = needsShared('were built from the benchmark files as they are', ...benchmarkFiles);
  it.skipIf(fresh.skip)(fresh.name, () => {
    for (const entry of benchmarkIndex()) {
      const bytes = readFileSync(sharedFile(`benchmarks/${entry.source_file}`).path);
      expect(createHash('sha256').update(bytes).digest('hex'), entry.name).toBe(
        entry.source_sha256,
      );
    }
  });

  const planted = needsShared(
    'find planted items with recall of at least 0.95 each way, and no real row',
    ...benchmarkFiles,
    'datasets/alpaca_cleaned_300.jsonl',
  );
  it.skipIf(planted.skip)(
    planted.name,
    () => {
      const matcher = contaminationMatcher({ benchmarks: 'all' })!;
      const hosts = hostRows();
      const figures = plantedFigures(matcher, benchmarkSources(), 60, hosts, hostSamples(hosts));
      for (const kind of PLANT_KINDS) {
        let found = 0;
        let planted = 0;
        for (const byKind of Object.values(figures.recall)) {
          found += byKind[kind][0];
          planted += byKind[kind][1];
        }
        expect(
          found / planted,
          `${kind}: missed ${figures.misses.join(', ')}`,
        ).toBeGreaterThanOrEqual(0.95);
      }
      expect(figures.falseAlarms[0]).toBe(0);
    },
    60_000,
  );
});
