import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sample } from '../src-shared/schemas/sample.ts';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import { BENCHMARKS } from '../src-main/engine/contamination/benchmarks.ts';
import { decodeFingerprints } from '../src-main/engine/contamination/fingerprints.ts';
import { fingerprintFile } from '../src-main/engine/contamination/index-file.ts';
import { ContaminationMatcher } from '../src-main/engine/contamination/match.ts';
import { PLANT_KINDS } from '../src-main/engine/contamination/testing/plants.ts';
import { needsShared } from '../src-main/engine/testing/shared-data.ts';
import { contaminationMatcher } from '../src-main/service/contamination/matcher.ts';
import {
  benchmarkSources,
  hostRows,
  hostSamples,
  plantedFigures,
  type PlantedFigures,
} from '../src-main/service/contamination/testing/planted.ts';
import { commonsenseQa, hellaswag } from '../src-main/engine/testing/real-data.ts';
import { sampleAsItem, sampleFields } from '../src-main/engine/contamination/fields.ts';
import { runOperationInThread } from '../src-main/service/runs/operation.ts';
import { CORPORA, replicate } from './corpus.ts';
import { formatRow, mib } from './stats.ts';

/**
 * The `contamination` check: what loading every shipped benchmark's
 * fingerprints costs (time, memory), what the check costs per row beside
 * the audit of the same rows on one thread (the bound: 20%), and,
 * with `../shared`, recall on benchmark items planted into real rows every
 * way and false alarms on the rows around them.
 */

const ROWS_PER_TYPE = 2_000;
const PLANTED_PER_BENCHMARK = 200;

const seconds = (start: number): number => (performance.now() - start) / 1000;

export async function benchContamination(): Promise<void> {
  console.log('\n## contamination: fingerprints, cost per row, planted recall');

  const dir = join(import.meta.dirname, '..', 'src-shared', 'benchmark-fingerprints');
  const buffersBefore = process.memoryUsage().arrayBuffers;
  const start = performance.now();
  const sets = BENCHMARKS.map((b) => {
    const bytes = readFileSync(join(dir, fingerprintFile(b.name)));
    return decodeFingerprints(b.name, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  });
  const matcher = new ContaminationMatcher(sets);
  const loadSeconds = seconds(start);
  const entries = sets.reduce((n, s) => n + s.refs.length, 0);
  const items = sets.reduce((n, s) => n + s.items, 0);
  console.log(
    `load: ${sets.length} sets, ${items.toLocaleString('en-US')} items, ` +
      `${entries.toLocaleString('en-US')} n-grams in ${(loadSeconds * 1000).toFixed(0)} ms, ` +
      `${mib(process.memoryUsage().arrayBuffers - buffersBefore)} of buffers (goal: 200 ms, 100 MB)`,
  );

  const widths = [18, 14, 14, 12];
  console.log(formatRow(['task type', 'audit µs/row', 'check µs/row', 'check/audit'], widths));
  for (const [type, corpus] of Object.entries(CORPORA)) {
    const samples: Sample[] = replicate(corpus(), ROWS_PER_TYPE);
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const t = performance.now();
      for (const sample of samples) matcher.match(sampleFields(sample));
      best = Math.min(best, seconds(t));
    }
    const t = performance.now();
    for (let i = 0; i < samples.length; i += 500) {
      await runOperationInThread(
        { operation: 'audit', samples: samples.slice(i, i + 500), config: { votes: 1 } },
        { backend: builtinBackend },
      );
    }
    const audit = seconds(t);
    const perRow = (s: number): number => (s * 1e6) / samples.length;
    console.log(
      formatRow(
        [type, perRow(audit), perRow(best), `${((100 * best) / audit).toFixed(1)}%`],
        widths,
      ),
    );
  }

  const shared = needsShared(
    'planted recall',
    ...BENCHMARKS.map((b) => `benchmarks/${b.file}`),
    'datasets/alpaca_cleaned_300.jsonl',
  );
  if (shared.skip) {
    console.log(`planted recall: ${shared.name}`);
    return;
  }
  const hosts = hostRows();
  console.log(
    `planted: up to ${PLANTED_PER_BENCHMARK} items per set, each planted ${PLANT_KINDS.length} ways ` +
      'into Alpaca rows, 50 to a run of 300 clean rows; found = fails naming the right item',
  );
  printFigures(
    plantedFigures(matcher, benchmarkSources(), PLANTED_PER_BENCHMARK, hosts, hostSamples(hosts)),
  );

  // --against: a user's own eval file (CommonsenseQA's and HellaSwag's shipped rows, read as the
  // CLI reads them), looked for with no benchmark chosen.
  const evalFiles = [
    { name: 'commonsenseqa_eval.jsonl', samples: commonsenseQa() },
    { name: 'hellaswag_eval.jsonl', samples: hellaswag() },
  ];
  const against = evalFiles.map(({ name, samples }) => ({
    name,
    items: samples.map(sampleAsItem),
  }));
  console.log('--against: the rows of two eval files planted the same ways');
  const ownMatcher = contaminationMatcher({ benchmarks: 'none', against });
  if (!ownMatcher) throw new Error('the eval files gave nothing to look for');
  printFigures(
    plantedFigures(ownMatcher, against, PLANTED_PER_BENCHMARK, hosts, hostSamples(hosts)),
  );
}

function printFigures(figures: PlantedFigures): void {
  const kindWidths = [26, ...PLANT_KINDS.map(() => 10)];
  console.log(formatRow(['benchmark', ...PLANT_KINDS], kindWidths));
  const totals = PLANT_KINDS.map((): [number, number] => [0, 0]);
  for (const [name, byKind] of Object.entries(figures.recall)) {
    console.log(
      formatRow(
        [
          name,
          ...PLANT_KINDS.map((kind, k) => {
            const [found, planted] = byKind[kind];
            const total = totals[k] as [number, number];
            total[0] += found;
            total[1] += planted;
            return (found / planted).toFixed(3);
          }),
        ],
        kindWidths,
      ),
    );
  }
  console.log(
    formatRow(
      ['all', ...totals.map(([found, planted]) => (found / planted).toFixed(3))],
      kindWidths,
    ),
  );
  const [flagged, clean] = figures.falseAlarms;
  console.log(`false alarms: ${flagged} of ${clean} real rows flagged`);
  if (figures.misses.length > 0)
    console.log(`missed (first): ${figures.misses.slice(0, 12).join('; ')}`);
}
