/**
 * The rows a scan's verdict writes touch (dataset-checks/sqlite.ts): those
 * with issues now and those that had dataset-check verdicts before, in row
 * order, each once, handed out a block at a time as the writes go. Merged as
 * they are asked for rather than made up front: at 1M rows, each with a
 * contamination issue, the up-front merge and the marking of the positions
 * with issues ran on the server's thread in one turn, 70-85 ms in a fresh
 * process and 0.3-0.5 s in a server with a large heap (the 1M end to end's
 * worst waits of 166-762 ms during a scan, found in a CPU profile).
 */
export class TouchedRows {
  readonly #withIssues: Int32Array;
  readonly #rowIndex: Int32Array;
  readonly #had: Int32Array;
  #i = 0;
  #j = 0;
  #last = -1;

  /**
   * `withIssues`: positions in the scan with issues, ascending; `rowIndex`:
   * position -> row, ascending; `hadChecks`: rows with verdicts before (in
   * any order: sorted here if they are not already).
   */
  constructor(withIssues: Int32Array, rowIndex: Int32Array, hadChecks: Int32Array) {
    this.#withIssues = withIssues;
    this.#rowIndex = rowIndex;
    this.#had = ascending(hadChecks) ? hadChecks : hadChecks.slice().sort();
  }

  /**
   * The next rows, at most `max` (none: all have been handed out), and the
   * positions with issues among them (ascending, as the rows).
   */
  next(max: number): { rows: number[]; withIssues: number[] } {
    const rows: number[] = [];
    const positions: number[] = [];
    const issues = this.#withIssues;
    const had = this.#had;
    while (rows.length < max && (this.#i < issues.length || this.#j < had.length)) {
      // Integers throughout (no Infinity): the loop stays in small integers when optimized.
      const position = this.#i < issues.length ? (issues[this.#i] as number) : -1;
      const a = position >= 0 ? (this.#rowIndex[position] as number) : END;
      const b = this.#j < had.length ? (had[this.#j] as number) : END;
      const next = a < b ? a : b;
      if (a === next) {
        this.#i++;
        positions.push(position);
      }
      if (b === next) this.#j++;
      if (next !== this.#last) rows.push((this.#last = next));
    }
    return { rows, withIssues: positions };
  }
}

/** Past every row (rows are below 2^31). */
const END = 0x7fffffff;

function ascending(values: Int32Array): boolean {
  for (let k = 1; k < values.length; k++) {
    if ((values[k] as number) < (values[k - 1] as number)) return false;
  }
  return true;
}
