import type { Db } from './db.ts';
import { statement } from './statements.ts';

/** The `runs` table (migration 3): audit, fix or refine over a dataset's rows. */

export type RunState = 'running' | 'done' | 'cancelled' | 'failed';

export interface RunRecord {
  id: string;
  dataset_id: string;
  operation: 'audit' | 'fix' | 'refine';
  /**
   * What the run covered, as `scopeRecord` (service/datasets/scope.ts) wrote
   * it: a selection since stop 41 as `{kind, rows, first, last, ranges}`,
   * before as the `indices` sent. Written only: nothing reads it back.
   */
  scope_json: string;
  config_json: string;
  status: RunState;
  total: number;
  done: number;
  cost_micro: number;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

export function insertRun(
  db: Db,
  run: Pick<
    RunRecord,
    'id' | 'dataset_id' | 'operation' | 'scope_json' | 'config_json' | 'total' | 'started_at'
  >,
): void {
  statement(
    db,
    `INSERT INTO runs (id, dataset_id, operation, scope_json, config_json, status, total,
       started_at)
     VALUES (@id, @dataset_id, @operation, @scope_json, @config_json, 'running', @total,
       @started_at)`,
  ).run(run);
}

export function runRecord(db: Db, id: string): RunRecord | undefined {
  return statement(db, 'SELECT * FROM runs WHERE id = ?').get(id) as RunRecord | undefined;
}

/** A dataset's runs, newest first. */
export function runRecords(db: Db, datasetId: string): RunRecord[] {
  return statement(
    db,
    'SELECT * FROM runs WHERE dataset_id = ? ORDER BY started_at DESC, id DESC',
  ).all(datasetId) as RunRecord[];
}

export function runningRuns(db: Db): RunRecord[] {
  return statement(db, `SELECT * FROM runs WHERE status = 'running'`).all() as RunRecord[];
}

export function updateRunProgress(
  db: Db,
  id: string,
  progress: { done: number; cost_micro: number },
): void {
  statement(db, 'UPDATE runs SET done = ?, cost_micro = ? WHERE id = ?').run(
    progress.done,
    progress.cost_micro,
    id,
  );
}

export function finishRun(
  db: Db,
  id: string,
  end: { status: Exclude<RunState, 'running'>; error: string | null; finished_at: string },
): void {
  statement(
    db,
    `UPDATE runs SET status = ?, error = ?, finished_at = ? WHERE id = ? AND status = 'running'`,
  ).run(end.status, end.error, end.finished_at, id);
}
