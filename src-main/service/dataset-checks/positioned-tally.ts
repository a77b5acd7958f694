import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import type { Tally } from '../../../src-shared/schemas/report.ts';
import { rowCounts, type RowCounts, type TallyParts } from '../../engine/dataset/scan.ts';

/**
 * A verdict tally that can be added up out of order: `svc merge` sums the
 * shards' tallies (each shard counts its own rows, every Nth) and what the
 * dataset checks change in a few rows, and must end with the tally one run
 * makes in row order. That tally's names keep the order they were first
 * counted in (a report lists tied names so), so each name here keeps where it
 * was first counted: the row's position, and its rank among the names that
 * row counted. The plain data (`entries`) goes in a part's trailer and
 * between threads.
 */

/** A name's counts and where it was first counted: [name, failed, warned, position, rank]. */
export type TallyEntry = [string, number, number, number, number];

export interface PositionedTallyData {
  samples: number;
  checks: TallyEntry[];
  issues: TallyEntry[];
}

interface Counted {
  failed: number;
  warned: number;
  position: number;
  rank: number;
}

export class PositionedTally {
  #samples = 0;
  readonly #checks = new Map<string, Counted>();
  readonly #issues = new Map<string, Counted>();

  /** Counts the row at `position` (nothing but the row for a row without a verdict). */
  add(audit: AuditBlock | null | undefined, position: number): void {
    this.#samples++;
    if (audit) this.#count(rowCounts(audit), position, 1);
  }

  /**
   * What changes when the row at `position`, counted as `was`, is `now`:
   * `now`'s counts added and `was`'s taken away (the row itself stays one).
   */
  change(
    was: AuditBlock | null | undefined,
    now: AuditBlock | null | undefined,
    position: number,
  ): void {
    if (was) this.#count(rowCounts(was), position, -1);
    if (now) this.#count(rowCounts(now), position, 1);
  }

  /**
   * Adds another tally's counts (its rows are not these); `offset` is added
   * to its positions (a slice's tally counts from the slice's first sample).
   */
  absorb(data: PositionedTallyData, offset = 0): void {
    this.#samples += data.samples;
    for (const [map, entries] of [
      [this.#checks, data.checks],
      [this.#issues, data.issues],
    ] as const) {
      for (const [name, failed, warned, position, rank] of entries) {
        bump(map, name, failed, warned, position + offset, rank);
      }
    }
  }

  /** As plain data. */
  entries(): PositionedTallyData {
    const of = (map: Map<string, Counted>): TallyEntry[] =>
      [...map].map(([name, c]) => [name, c.failed, c.warned, c.position, c.rank]);
    return { samples: this.#samples, checks: of(this.#checks), issues: of(this.#issues) };
  }

  /**
   * The tally a VerdictTally makes counting the same rows in position order:
   * names in the order first counted, a name no row counts any longer left out.
   */
  parts(): TallyParts {
    const ordered = (map: Map<string, Counted>): [string, Tally][] =>
      [...map]
        .filter(([, c]) => c.failed !== 0 || c.warned !== 0)
        .sort(([, a], [, b]) => a.position - b.position || a.rank - b.rank)
        .map(([name, c]) => [name, { failed: c.failed, warned: c.warned }]);
    return { samples: this.#samples, checks: ordered(this.#checks), issues: ordered(this.#issues) };
  }

  #count(counts: RowCounts, position: number, sign: 1 | -1): void {
    for (const [map, named] of [
      [this.#checks, counts.checks],
      [this.#issues, counts.issues],
    ] as const) {
      named.forEach(([name, kind], rank) => {
        const failed = kind === 'failed' ? sign : 0;
        bump(map, name, failed, sign - failed, position, rank);
      });
    }
  }
}

function bump(
  map: Map<string, Counted>,
  name: string,
  failed: number,
  warned: number,
  position: number,
  rank: number,
): void {
  const counted = map.get(name);
  if (!counted) {
    map.set(name, { failed, warned, position, rank });
    return;
  }
  counted.failed += failed;
  counted.warned += warned;
  if (position < counted.position || (position === counted.position && rank < counted.rank)) {
    counted.position = position;
    counted.rank = rank;
  }
}
