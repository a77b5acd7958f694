import type { z } from 'zod';
import type {
  DatasetOverview,
  DuplicateGroupsPage,
  DuplicateGroupsQuery,
} from '../../../src-shared/owner/overview.ts';
import type { DatasetFinding, Tally } from '../../../src-shared/schemas/report.ts';
import type { Db } from '../../store/db.ts';
import {
  duplicateGroupsPage,
  keptRowCount,
  tallyRows,
  type DuplicateGroupRecord,
} from '../../store/datasets-scan.ts';
import type { StoredScan } from './scan.ts';
import { readyDataset } from './summary.ts';

/** Groups listed in the overview itself (the rest are paged). */
const OVERVIEW_GROUPS = 20;
/** A check failing in at least this share of the rows is a finding (as in the CLI's report). */
const FAILING_SHARE = 0.05;

const split = (stored: string): string[] => stored.split(',').filter(Boolean);

function bump(map: Map<string, Tally>, key: string, kind: keyof Tally): void {
  const tally = map.get(key) ?? { failed: 0, warned: 0 };
  tally[kind]++;
  map.set(key, tally);
}

const sorted = (map: Map<string, Tally>): Record<string, Tally> =>
  Object.fromEntries(
    [...map].sort((a, b) => b[1].failed - a[1].failed || b[1].warned - a[1].warned),
  );

function groupOf(record: DuplicateGroupRecord): z.infer<typeof DuplicateGroupsPage>['groups'][0] {
  return {
    kind: record.kind,
    rows: JSON.parse(record.rows_json) as number[],
    similarity: record.similarity,
    label_conflict: record.label_conflict === 1,
    ...(record.source_rows_json
      ? { source_rows: JSON.parse(record.source_rows_json) as number[] }
      : {}),
  };
}

/**
 * A dataset at a glance: the counts of failures and warnings per check and
 * per issue code of every row's verdict in force (dropped rows left out),
 * the latest scan's statistics and findings, and the first duplicate groups.
 */
export function datasetOverview(db: Db, datasetId: string, scanning: boolean): DatasetOverview {
  const dataset = readyDataset(db, datasetId);
  const checks = new Map<string, Tally>();
  const issues = new Map<string, Tally>();
  for (const row of tallyRows(db, dataset.id)) {
    const failed = split(row.failed_checks);
    for (const check of failed) bump(checks, check, 'failed');
    for (const check of split(row.warning_checks)) {
      if (!failed.includes(check)) bump(checks, check, 'warned');
    }
    const errors = split(row.error_codes);
    for (const code of errors) bump(issues, code, 'failed');
    for (const code of split(row.warning_codes)) {
      if (!errors.includes(code)) bump(issues, code, 'warned');
    }
  }
  const rows = keptRowCount(db, dataset.id);
  const scan = dataset.scan_json === null ? null : (JSON.parse(dataset.scan_json) as StoredScan);
  const failing: DatasetFinding[] = [...checks]
    .filter(([, t]) => rows > 0 && t.failed / rows >= FAILING_SHARE)
    .map(([check, t]) => ({
      code: 'failing_check',
      message: `${check} fails in ${t.failed} of ${rows} rows (${Math.round((t.failed / rows) * 100)}%)`,
      check,
      rows: t.failed,
    }));
  const groups = duplicateGroupsPage(db, dataset.id, 0, OVERVIEW_GROUPS);
  return {
    dataset_id: dataset.id,
    rows,
    scanning,
    scan: scan && {
      scanned_at: scan.scanned_at,
      threshold: scan.threshold,
      statistics: scan.statistics,
    },
    checks: sorted(checks),
    issues: sorted(issues),
    findings: [...(scan?.findings ?? []), ...failing],
    duplicate_groups: { total: groups.total, groups: groups.groups.map(groupOf) },
  };
}

export function duplicateGroups(
  db: Db,
  query: z.output<typeof DuplicateGroupsQuery>,
): DuplicateGroupsPage {
  readyDataset(db, query.dataset_id);
  const page = duplicateGroupsPage(db, query.dataset_id, query.offset, query.limit);
  return { total: page.total, groups: page.groups.map(groupOf) };
}
