import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { Decision } from '../../../src-shared/owner/datasets.ts';
import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import type { Db } from '../../store/db.ts';
import {
  decisionTargets,
  reauditedRows,
  setDecision,
  setDropped,
  updateVerdicts,
} from '../../store/datasets-rows.ts';
import type { DatasetVerdicts } from '../dataset-checks/core.ts';
import { displayedVerdict, verdictColumns } from './row-state.ts';
import { rowSearch } from './search-text.ts';
import { readyDataset } from './summary.ts';

const CHUNK = 2_000;

/**
 * Decides on rows, by index or for every row matching a filter (both: the
 * listed rows that match). On a fix: `accepted`, `rejected`, or `null`
 * (pending again), only for rows whose fix changed something (the others are
 * skipped); a row's verdict is that of the sample its export will hold (see
 * row-state.ts), so deciding rewrites the verdict of rows with a reaudit. On
 * a row: `dropped` leaves it out of the export, `restored` takes it back
 * (any row). The rows are chosen before anything changes: a filter on
 * verdicts selects the rows as the user saw them. One immediate transaction.
 * Returns how many rows were set.
 */
export function decide(db: Db, input: z.output<typeof Decision>): { updated: number } {
  readyDataset(db, input.dataset_id);
  if (input.indices === undefined && input.filter === undefined) {
    throw new AppError('invalid_request', 'name the rows: `indices`, or a `filter` (`{}` for all)');
  }
  const target = { indices: input.indices, filter: input.filter };
  const search = rowSearch(db, input.dataset_id);
  const decision = input.decision;
  if (decision === 'dropped' || decision === 'restored') {
    return db
      .transaction(() => {
        const indices = decisionTargets(db, input.dataset_id, target, false, search);
        return { updated: setDropped(db, input.dataset_id, decision === 'dropped', indices) };
      })
      .immediate();
  }
  return db
    .transaction(() => {
      const indices = decisionTargets(db, input.dataset_id, target, decision !== null, search);
      setDecision(db, input.dataset_id, decision, indices);
      for (let start = 0; start < indices.length; start += CHUNK) {
        const rows = reauditedRows(db, input.dataset_id, indices.slice(start, start + CHUNK));
        updateVerdicts(
          db,
          input.dataset_id,
          rows.map((row) => {
            const audit =
              row.audit_json === null ? null : (JSON.parse(row.audit_json) as AuditBlock);
            const reaudit = JSON.parse(row.reaudit_json ?? 'null') as AuditBlock | null;
            const checks = JSON.parse(row.checks_json ?? 'null') as DatasetVerdicts | null;
            return {
              row_index: row.row_index,
              ...verdictColumns(displayedVerdict(audit, reaudit, decision, checks)),
            };
          }),
        );
      }
      return { updated: indices.length };
    })
    .immediate();
}
