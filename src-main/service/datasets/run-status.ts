import type { RunStatus } from '../../../src-shared/owner/runs.ts';
import type { RunRecord } from '../../store/datasets-runs.ts';
import { microToUsd } from '../billing/money.ts';

/** Rows per second since the run started, to one decimal. */
export function ratePerSecond(done: number, startedAt: string, endMs: number): number {
  const seconds = (endMs - Date.parse(startedAt)) / 1000;
  return seconds > 0 ? Math.round((done / seconds) * 10) / 10 : 0;
}

/** A stored run as the app sees it. */
export function statusOfRecord(record: RunRecord, now: Date = new Date()): RunStatus {
  const end = record.finished_at === null ? now.getTime() : Date.parse(record.finished_at);
  return {
    id: record.id,
    dataset_id: record.dataset_id,
    operation: record.operation,
    status: record.status,
    total: record.total,
    done: record.done,
    rate_per_s: ratePerSecond(record.done, record.started_at, end),
    cost_usd: microToUsd(record.cost_micro),
    error: record.error,
    started_at: record.started_at,
    finished_at: record.finished_at,
  };
}
