import type { Operation } from '../../src-shared/schemas/config.ts';
import {
  addCounts,
  cleanVerdicts,
  datasetChecksOnly,
  recountOf,
  withDatasetVerdicts,
  type DatasetVerdicts,
} from '../service/dataset-checks/core.ts';
import {
  PositionedTally,
  type PositionedTallyData,
} from '../service/dataset-checks/positioned-tally.ts';
import type { ResultSample } from '../service/runs/contract.ts';

/**
 * A shard's rows as its part holds them: each with the dataset checks'
 * verdicts of a row in which they find nothing, as one run writes such a row,
 * so `svc merge` copies most rows' bytes through and parses only the rows the
 * checks found something in. What the rows count (the verdict tally, the
 * counts the dataset checks can change) goes in the part's trailer.
 */
export class CleanRows {
  readonly #operation: Operation;
  readonly #verdicts: DatasetVerdicts;
  readonly #tally = new PositionedTally();
  readonly #recount: Record<string, number> = {};

  /** `contamination`: whether the contamination check runs on this file. */
  constructor(operation: Operation, contamination: boolean) {
    this.#operation = operation;
    this.#verdicts = cleanVerdicts(contamination);
  }

  /** The checks every row carries, in order (the part header's `clean`). */
  get checks(): string[] {
    return Object.keys(this.#verdicts);
  }

  /** The output row at `position`, as the part holds it; counted. */
  row(sample: ResultSample, position: number): ResultSample {
    const row = withDatasetVerdicts(this.#operation, sample, this.#verdicts);
    this.#tally.add(row.audit ?? datasetChecksOnly(this.#verdicts), position);
    addCounts(this.#recount, recountOf(this.#operation, row));
    return row;
  }

  /**
   * Rows made and counted elsewhere (a worker's slice: service/file-pass/shard-run-task.ts),
   * their positions counted from `offset`.
   */
  absorb(
    counted: { tally: PositionedTallyData; recount: Record<string, number> },
    offset: number,
  ): void {
    this.#tally.absorb(counted.tally, offset);
    addCounts(this.#recount, counted.recount);
  }

  /** What the trailer says the rows count. */
  counted(): { tally: PositionedTallyData; recount: Record<string, number> } {
    return { tally: this.#tally.entries(), recount: { ...this.#recount } };
  }
}
