import type { Db } from './db.ts';
import { statement } from './statements.ts';

/** The owner's runs' usage (migration 7): append-only lines, summed per run and per day. */

export interface NewUsageLine {
  run_id: string;
  source: 'app' | 'cli';
  operation: 'audit' | 'fix' | 'refine';
  label: string;
  model: string;
  samples: number;
  input_tokens: number;
  output_tokens: number;
  passes: number;
  cost_micro: number;
}

export function insertUsage(db: Db, line: NewUsageLine): void {
  statement(
    db,
    `INSERT INTO owner_usage (run_id, source, operation, label, model, samples, input_tokens,
       output_tokens, passes, cost_micro)
     VALUES (@run_id, @source, @operation, @label, @model, @samples, @input_tokens,
       @output_tokens, @passes, @cost_micro)`,
  ).run(line);
}

export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cost_micro: number;
}

export function usageOfRun(db: Db, runId: string): UsageTotals {
  return statement(
    db,
    `SELECT coalesce(sum(input_tokens), 0) AS input_tokens,
         coalesce(sum(output_tokens), 0) AS output_tokens,
         coalesce(sum(cost_micro), 0) AS cost_micro
       FROM owner_usage WHERE run_id = ?`,
  ).get(runId) as UsageTotals;
}

/** Usage per UTC day from `from` (inclusive) to `to` (exclusive), ISO timestamps. */
export function usageByDay(db: Db, from: string, to: string): (UsageTotals & { day: string })[] {
  return statement(
    db,
    `SELECT substr(created_at, 1, 10) AS day, sum(input_tokens) AS input_tokens,
         sum(output_tokens) AS output_tokens, sum(cost_micro) AS cost_micro
       FROM owner_usage WHERE created_at >= ? AND created_at < ?
       GROUP BY day`,
  ).all(from, to) as (UsageTotals & { day: string })[];
}
