import type { Issue } from '../../../../src-shared/schemas/blocks.ts';
import type { Sample } from '../../../../src-shared/schemas/sample.ts';
import { BENCHMARKS } from '../../../engine/contamination/benchmarks.ts';
import type { EvalSource } from '../../../engine/contamination/build.ts';
import type { ContaminationMatcher } from '../../../engine/contamination/match.ts';
import { ContaminationScan } from '../../../engine/contamination/scan.ts';
import {
  PLANT_KINDS,
  plantAll,
  type Host,
  type PlantKind,
} from '../../../engine/contamination/testing/plants.ts';
import { sharedJsonl } from '../../../engine/testing/shared-data.ts';

/**
 * Recall on planted benchmark items and false alarms on real rows, as the
 * test and the bench measure them: each shipped benchmark's items (read from
 * `../shared/benchmarks/`) planted into real training rows every way, run
 * through the `contamination` check as one run would, host rows among them.
 */

/** Planted rows per run, among the clean rows. */
const PLANTS_PER_RUN = 50;

export interface PlantedFigures {
  /** Per benchmark, per plant kind: [found with the right item, planted]. */
  recall: Record<string, Record<PlantKind, [number, number]>>;
  /** Host rows left as they were: [flagged, rows]. */
  falseAlarms: [number, number];
  /** Examples of misses, for a person to read. */
  misses: string[];
}

/** Real training rows to plant into: Alpaca's instructions and OpenAssistant's first replies. */
export function hostRows(): Host[] {
  const alpaca = sharedJsonl<{ instruction: string; input: string; output: string }>(
    'datasets/alpaca_cleaned_300.jsonl',
  ).map((row) => ({
    instruction: `${row.instruction}\n${row.input}`.trim(),
    response: row.output,
  }));
  return alpaca;
}

/** The rows of a real dataset as samples, none of them planted. */
export function hostSamples(hosts: readonly Host[]): Sample[] {
  return hosts.map((host) => ({
    task_type: 'conversation',
    messages: [
      { role: 'user', content: host.instruction },
      { role: 'assistant', content: host.response },
    ],
  }));
}

/** The shipped benchmarks' items, read from `../shared/benchmarks/`. */
export function benchmarkSources(): EvalSource[] {
  return BENCHMARKS.map((spec) => ({
    name: spec.name,
    items: sharedJsonl(`benchmarks/${spec.file}`).map(spec.item),
  }));
}

/**
 * Recall on `perSet` items of each source planted every way (found: the row
 * fails naming the source and the item), and false alarms on `cleanRows`.
 */
export function plantedFigures(
  matcher: ContaminationMatcher,
  sources: readonly EvalSource[],
  perSet: number,
  hosts: readonly Host[],
  cleanRows: readonly Sample[],
): PlantedFigures {
  const recall: PlantedFigures['recall'] = {};
  const misses: string[] = [];
  for (const source of sources) {
    const plants = plantAll(source.items, hosts, perSet);
    // Planted among clean rows, as in a real training set (a few planted rows to a run: a run
    // mostly of one benchmark is that benchmark, and its rows only warn).
    const issues = new Map<number, Issue[]>();
    for (let start = 0; start < plants.length; start += PLANTS_PER_RUN) {
      const scan = new ContaminationScan(matcher);
      const chunk = plants.slice(start, start + PLANTS_PER_RUN);
      for (const p of chunk) scan.add(p.sample);
      for (const row of cleanRows) scan.add(row);
      for (const [position, found] of scan.finish().issues) {
        if (position < chunk.length) issues.set(start + position, found);
      }
    }
    const counts = Object.fromEntries(PLANT_KINDS.map((k) => [k, [0, 0]])) as Record<
      PlantKind,
      [number, number]
    >;
    plants.forEach((p, position) => {
      const tally = counts[p.kind];
      tally[1]++;
      const found = (issues.get(position) ?? []).some(
        (issue) =>
          issue.benchmark === source.name &&
          issue.benchmark_item === p.item &&
          issue.severity === 'error',
      );
      if (found) tally[0]++;
      else if (misses.length < 40) misses.push(`${source.name} #${p.item} ${p.kind}`);
    });
    recall[source.name] = counts;
  }
  const scan = new ContaminationScan(matcher);
  for (const row of cleanRows) scan.add(row);
  const flagged = scan.finish().issues.size;
  return { recall, falseAlarms: [flagged, cleanRows.length], misses };
}
