import type { z } from 'zod';
import type {
  DatasetOverview,
  DuplicateGroupsPage,
  DuplicateGroupsQuery,
} from '../../../src-shared/owner/overview.ts';
import type { Tally } from '../../../src-shared/schemas/report.ts';
import { failingCheckFindings, sortedTallies } from '../../engine/dataset/scan.ts';
import type { Db } from '../../store/db.ts';
import {
  duplicateGroupsPage,
  keptRowCount,
  keptTallies,
  type DuplicateGroupRecord,
} from '../../store/datasets-scan.ts';
import type { StoredScan } from '../dataset-checks/sqlite.ts';
import { readyDataset } from './summary.ts';

/** Groups listed in the overview itself (the rest are paged). */
const OVERVIEW_GROUPS = 20;

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
 * per issue code of every row's verdict in force (dropped rows left out, the
 * counts kept as verdicts are written, so this reads no row),
 * the latest scan's statistics and findings, and the first duplicate groups.
 */
export function datasetOverview(db: Db, datasetId: string, scanning: boolean): DatasetOverview {
  const dataset = readyDataset(db, datasetId);
  // Kept by a trigger as verdicts are written (migration 10): no row is read here.
  const checks = new Map<string, Tally>();
  const issues = new Map<string, Tally>();
  for (const { kind, name, failed, warned } of keptTallies(db, dataset.id)) {
    (kind === 'check' ? checks : issues).set(name, { failed, warned });
  }
  const rows = keptRowCount(db, dataset.id);
  const scan = dataset.scan_json === null ? null : (JSON.parse(dataset.scan_json) as StoredScan);
  const sortedChecks = sortedTallies(checks);
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
    checks: sortedChecks,
    issues: sortedTallies(issues),
    findings: [...(scan?.findings ?? []), ...failingCheckFindings(sortedChecks, rows)],
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
