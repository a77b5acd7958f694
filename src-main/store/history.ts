import type { Db } from './db.ts';
import { statement } from './statements.ts';

export type HistoryOperation = 'fix' | 'refine';
export type HistorySource = 'http' | 'v1' | 'app' | 'cli';

/** A history row without its JSON (what a listing reads). */
export interface HistorySummaryRow {
  id: number;
  account_id: number;
  key_id: string | null;
  request_id: string;
  operation: HistoryOperation;
  source: HistorySource;
  samples: number | null;
  cost_micro: number;
  created_at: string;
}

export interface HistoryRow extends HistorySummaryRow {
  input_json: string;
  output_json: string;
}

const SUMMARY_COLUMNS =
  'id, account_id, key_id, request_id, operation, source, samples, cost_micro, created_at';

export function insertHistoryRow(db: Db, row: Omit<HistoryRow, 'id'>): number {
  const result = statement(
    db,
    `INSERT INTO history (account_id, key_id, request_id, operation, source, samples,
         input_json, output_json, cost_micro, created_at)
       VALUES (@account_id, @key_id, @request_id, @operation, @source, @samples,
         @input_json, @output_json, @cost_micro, @created_at)`,
  ).run(row);
  return Number(result.lastInsertRowid);
}

/** Newest first; `limit` rows older than `beforeId` when given; the JSON only when asked for. */
export function historyRows(
  db: Db,
  page: { limit: number; beforeId?: number; accountId?: number; withJson?: boolean },
): HistorySummaryRow[] | HistoryRow[] {
  const columns = page.withJson === true ? '*' : SUMMARY_COLUMNS;
  return statement(
    db,
    `SELECT ${columns} FROM history
       WHERE (@before IS NULL OR id < @before) AND (@account IS NULL OR account_id = @account)
       ORDER BY id DESC LIMIT @limit`,
  ).all({
    before: page.beforeId ?? null,
    account: page.accountId ?? null,
    limit: page.limit,
  }) as HistorySummaryRow[] | HistoryRow[];
}

export function historyRow(db: Db, id: number): HistoryRow | undefined {
  return statement(db, 'SELECT * FROM history WHERE id = ?').get(id) as HistoryRow | undefined;
}

/** Deletes the rows created before `cutoff` (an ISO timestamp); returns how many. */
export function deleteHistoryBefore(db: Db, cutoff: string): number {
  return statement(db, 'DELETE FROM history WHERE created_at < ?').run(cutoff).changes;
}
