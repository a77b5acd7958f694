import type { Issue, Verdict } from '../../../src-shared/schemas/blocks.ts';
import { CONTAMINATION_CHECK, DUPLICATES_CHECK } from '../../../src-shared/checks.ts';
import { contaminationVerdict } from '../../engine/contamination/scan.ts';
import { duplicatesVerdict } from '../../engine/dataset/duplicates.ts';
import { anyFailed, type DatasetVerdicts } from './core.ts';
import type { ScanComputed } from './scan-compute.ts';

/**
 * A row's dataset-check verdicts as its verdict write stores them: the
 * scan's thread makes them (and their JSON), so the server's thread only
 * writes text it is handed. At 200,000 GSM8K-like rows the server's thread
 * spent ~0.3 s making them and ~0.3 s more reading each row's stored
 * verdict to compare (sqlite.ts, writeVerdicts).
 */
export type RowChecks = [
  position: number,
  /** The row's `checks_json`: JSON of its DatasetVerdicts (only the checks with issues). */
  checksJson: string,
  /**
   * None of the checks failed: a row with no verdict keeps the verdict
   * columns of none (see row-state.ts displayedVerdict), so only its checks
   * are written (`setUnverdictedRowChecks`).
   */
  failsNone: boolean,
];

/**
 * A row's dataset-check verdicts from its issues (null: none); `toRow` turns
 * a duplicate's position in the scan into its row.
 */
function datasetVerdictsOf(
  duplicates: readonly Issue[] | null,
  overlaps: readonly Issue[] | null,
  toRow: (position: number) => number,
): DatasetVerdicts | null {
  const checks: Record<string, Verdict> = {};
  if (duplicates) {
    checks[DUPLICATES_CHECK] = duplicatesVerdict(
      duplicates.map((issue) =>
        issue.ref === undefined ? issue : { ...issue, ref: toRow(issue.ref) },
      ),
    );
  }
  if (overlaps) checks[CONTAMINATION_CHECK] = contaminationVerdict(overlaps);
  return Object.keys(checks).length === 0 ? null : checks;
}

/** The checks of those positions that have issues (the others left out), in the order asked. */
export function rowChecksOf(computed: ScanComputed, positions: readonly number[]): RowChecks[] {
  const { rowIndex } = computed;
  const toRow = (p: number): number => rowIndex[p] as number;
  const out: RowChecks[] = [];
  for (const position of positions) {
    const checks = datasetVerdictsOf(
      computed.duplicates.issues.get(position) ?? null,
      computed.contamination.issues.get(position) ?? null,
      toRow,
    );
    if (checks) out.push([position, JSON.stringify(checks), !anyFailed(checks)]);
  }
  return out;
}
