import type { GridRow } from '../../../src-shared/owner/datasets.ts';

/**
 * Every status the row's badges show, in words, for the status cell's
 * tooltip: the cell is cut at its column's width, and a row that failed
 * checks and was flagged, edited, dropped and decided holds more badges than
 * fit.
 */
export function statusSummary(row: GridRow): string {
  const parts = [
    row.passed === null
      ? 'not audited'
      : !row.passed
        ? `failed: ${row.failed_checks.join(', ') || 'a check'}`
        : row.unverified
          ? 'undecided (the label or the answer could not be verified)'
          : 'passed',
  ];
  if (row.flagged) parts.push('flagged');
  if (row.edited) parts.push('edited');
  else if (row.changed) parts.push('changed');
  if (row.dropped) parts.push('dropped');
  if (row.decision) parts.push(row.decision);
  return parts.join(' · ');
}
