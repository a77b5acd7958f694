import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { Decision } from '../../../src-shared/owner/datasets.ts';
import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import type { Db } from '../../store/db.ts';
import {
  decisionTargets,
  reauditedRows,
  setDecision,
  updateVerdicts,
} from '../../store/datasets-rows.ts';
import { verdictColumns, verdictInForce } from './row-state.ts';
import { readyDataset } from './summary.ts';

const CHUNK = 2_000;

/**
 * Accepts or rejects fixes (or makes them pending again with `null`), for
 * rows by index or for every row matching a filter (both: the listed rows
 * that match). Only rows whose fix changed something can be accepted or
 * rejected; the others are skipped. A row's verdict is that of the sample
 * its export will hold (see row-state.ts), so deciding rewrites the verdict
 * of rows with a reaudit. The rows are chosen before anything changes: a
 * filter on verdicts selects the rows as the user saw them. One immediate
 * transaction. Returns how many rows were set.
 */
export function decide(db: Db, input: z.output<typeof Decision>): { updated: number } {
  readyDataset(db, input.dataset_id);
  if (input.indices === undefined && input.filter === undefined) {
    throw new AppError('invalid_request', 'name the rows: `indices`, or a `filter` (`{}` for all)');
  }
  return db
    .transaction(() => {
      const indices = decisionTargets(
        db,
        input.dataset_id,
        { indices: input.indices, filter: input.filter },
        input.decision !== null,
      );
      setDecision(db, input.dataset_id, input.decision, indices);
      for (let start = 0; start < indices.length; start += CHUNK) {
        const rows = reauditedRows(db, input.dataset_id, indices.slice(start, start + CHUNK));
        updateVerdicts(
          db,
          input.dataset_id,
          rows.map((row) => {
            const audit =
              row.audit_json === null ? null : (JSON.parse(row.audit_json) as AuditBlock);
            const reaudit = JSON.parse(row.reaudit_json ?? 'null') as AuditBlock | null;
            return {
              row_index: row.row_index,
              ...verdictColumns(verdictInForce(audit, reaudit, input.decision)),
            };
          }),
        );
      }
      return { updated: indices.length };
    })
    .immediate();
}
