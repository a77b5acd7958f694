import type { z } from 'zod';
import { AppError } from '../../../src-shared/errors.ts';
import type { Decision } from '../../../src-shared/owner/datasets.ts';
import type { AuditBlock } from '../../../src-shared/schemas/blocks.ts';
import { unsynced } from '../../store/commit.ts';
import type { Db } from '../../store/db.ts';
import {
  changedAmong,
  reauditedRows,
  setDecision,
  setDropped,
  updateVerdicts,
} from '../../store/datasets-rows.ts';
import type { DatasetVerdicts } from '../dataset-checks/core.ts';
import { gridQueries } from './grid-queries.ts';
import { displayedVerdict, verdictColumns } from './row-state.ts';
import { sortedDistinct } from './scope.ts';
import { readyDataset } from './summary.ts';
import { inTurns } from './turns.ts';
import { syncWalOffThread } from './wal-sync.ts';

type DecisionInput = z.output<typeof Decision>;

/**
 * Decides on rows, by index or for every row matching a filter (both: the
 * listed rows that match). On a fix: `accepted`, `rejected`, or `null`
 * (pending again), only for rows whose fix changed something (the others are
 * skipped); a row's verdict is that of the sample its export will hold (see
 * row-state.ts), so deciding rewrites the verdict of rows with a reaudit. On
 * a row: `dropped` leaves it out of the export, `restored` takes it back
 * (any row). Returns how many rows were set.
 *
 * The rows are chosen before anything changes, so a filter on verdicts
 * selects them as the user saw them: by the grid's thread, which reads the
 * filter (a text search included) off this one. They are then written in
 * ascending transactions sized to hold the server a few milliseconds each
 * (turns.ts): "drop all shown" on 50,000 rows, one transaction, held it
 * 0.5-0.85 s. A decision stopped half-way (the app quit) leaves the rows
 * written so far decided; the same decision again finishes it. Each transaction commits
 * unsynced (its fsync, on the server's thread, waited up to 80 ms while other threads wrote),
 * and the WAL they grew is flushed off the thread before the answer: a decision answered is on
 * the disk, and the next fsync'd commit (a charge) has only its own frames to write.
 */
export async function decide(db: Db, input: DecisionInput): Promise<{ updated: number }> {
  const dataset = readyDataset(db, input.dataset_id);
  if (input.indices === undefined && input.filter === undefined) {
    throw new AppError('invalid_request', 'name the rows: `indices`, or a `filter` (`{}` for all)');
  }
  // Rows past the end are named, not passed over: `{updated: 0}` said nothing of a wrong index.
  const missing = (input.indices ?? []).filter((index) => index >= dataset.row_count);
  if (missing.length > 0) {
    const shown = missing.slice(0, 5).join(', ') + (missing.length > 5 ? ', …' : '');
    throw new AppError(
      'not_found',
      `dataset ${JSON.stringify(dataset.name)} has ${dataset.row_count} rows (0 to ` +
        `${dataset.row_count - 1}): no row ${shown}; nothing was decided`,
    );
  }
  const rows = await chosenRows(db, input);
  const apply = rowsDecider(db, input);
  let updated = 0;
  let next = 0;
  await inTurns((size) => {
    const chunk = Array.from(rows.subarray(next, next + size));
    next += chunk.length;
    updated += unsynced(db, () => apply(chunk));
    return next < rows.length;
  });
  await syncWalOffThread(db);
  return { updated };
}

/** The rows a decision names, ascending and distinct: the listed ones that match its filter. */
async function chosenRows(db: Db, input: DecisionInput): Promise<Int32Array> {
  const listed =
    input.indices === undefined ? undefined : sortedDistinct(Int32Array.from(input.indices));
  if (input.filter === undefined) return listed as Int32Array;
  const { rows } = await gridQueries(db).scope({
    dataset_id: input.dataset_id,
    filter: input.filter,
    size: false,
  });
  const matching = rows ?? new Int32Array(0);
  return listed === undefined ? matching : intersection(matching, listed);
}

/** The values two ascending arrays share, ascending. */
function intersection(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, n);
}

/** Sets the decision on some rows (ascending); returns how many it set. One transaction's work. */
function rowsDecider(db: Db, input: DecisionInput): (rows: number[]) => number {
  const { dataset_id: datasetId, decision } = input;
  if (decision === 'dropped' || decision === 'restored') {
    return (rows) => setDropped(db, datasetId, decision === 'dropped', rows);
  }
  return (rows) => {
    // Accepting and rejecting apply to the rows whose fix changed something; pending, to any.
    const indices = decision === null ? rows : changedAmong(db, datasetId, rows);
    setDecision(db, datasetId, decision, indices);
    updateVerdicts(
      db,
      datasetId,
      reauditedRows(db, datasetId, indices).map((row) => {
        const audit = row.audit_json === null ? null : (JSON.parse(row.audit_json) as AuditBlock);
        const reaudit = JSON.parse(row.reaudit_json ?? 'null') as AuditBlock | null;
        const checks = JSON.parse(row.checks_json ?? 'null') as DatasetVerdicts | null;
        return {
          row_index: row.row_index,
          ...verdictColumns(displayedVerdict(audit, reaudit, decision, checks)),
        };
      }),
    );
    return indices.length;
  };
}
