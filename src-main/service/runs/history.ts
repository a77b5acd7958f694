import { AppError } from '../../../src-shared/errors.ts';
import type { Db } from '../../store/db.ts';
import {
  deleteHistoryBefore,
  historyRow,
  historyRows,
  insertHistoryRow,
  type HistoryOperation,
  type HistoryRow,
  type HistorySource,
  type HistorySummaryRow,
} from '../../store/history.ts';
import { OWNER_ACCOUNT_ID } from '../../store/ledger.ts';
import { parseJsonExact } from '../../../src-shared/exact-json.ts';

export type { HistoryOperation, HistorySource } from '../../store/history.ts';

/**
 * The account's history of fix and refine runs: their input and output, kept
 * 30 days and then purged. Audit records nothing here (it stores nothing about
 * the samples anywhere).
 */

export const HISTORY_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;

export type HistorySummary = HistorySummaryRow;
export interface HistoryEntry extends HistorySummary {
  input: unknown;
  output: unknown;
}

/**
 * A run's input or output already written as JSON (in an engine worker,
 * where the samples were): recorded as it is, not serialized again.
 */
export class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  /** An array made of its items' JSON, each written on its own (in slices, on a thread's turns). */
  static ofItems(items: readonly string[]): JsonText {
    return new JsonText(`[${items.join(',')}]`);
  }
}

const jsonOf = (value: unknown): string =>
  value instanceof JsonText ? value.text : JSON.stringify(value);

export interface NewHistoryEntry {
  accountId?: number;
  keyId?: string | null;
  requestId: string;
  operation: HistoryOperation;
  source: HistorySource;
  input: unknown;
  output: unknown;
  costMicro: number;
  /** Samples in the run; by default the length of `input` when it is an array. */
  samples?: number | null;
  now?: Date;
}

export function recordHistory(db: Db, entry: NewHistoryEntry): number {
  if (!Number.isSafeInteger(entry.costMicro) || entry.costMicro < 0) {
    throw new RangeError(`costMicro must be a whole number >= 0, got ${entry.costMicro}`);
  }
  return insertHistoryRow(db, {
    account_id: entry.accountId ?? OWNER_ACCOUNT_ID,
    key_id: entry.keyId ?? null,
    request_id: entry.requestId,
    operation: entry.operation,
    source: entry.source,
    samples: entry.samples ?? (Array.isArray(entry.input) ? entry.input.length : null),
    input_json: jsonOf(entry.input),
    output_json: jsonOf(entry.output),
    cost_micro: entry.costMicro,
    created_at: (entry.now ?? new Date()).toISOString(),
  });
}

export interface HistoryPage {
  limit: number;
  beforeId?: number;
  accountId?: number;
  /** Also return each run's input and output (large); off by default. */
  includeData?: boolean;
}

const toEntry = ({ input_json, output_json, ...summary }: HistoryRow): HistoryEntry => ({
  ...summary,
  input: parseJsonExact(input_json),
  output: parseJsonExact(output_json),
});

/** Newest first, `limit` entries older than `beforeId` when given; without the JSON unless asked. */
export function listHistory(db: Db, page: HistoryPage & { includeData: true }): HistoryEntry[];
export function listHistory(db: Db, page: HistoryPage): HistorySummary[];
export function listHistory(db: Db, page: HistoryPage): HistorySummary[] | HistoryEntry[] {
  if (!Number.isSafeInteger(page.limit) || page.limit < 1) {
    throw new RangeError(`limit must be a positive whole number, got ${page.limit}`);
  }
  if (page.includeData === true) {
    return (historyRows(db, { ...page, withJson: true }) as HistoryRow[]).map(toEntry);
  }
  return historyRows(db, { ...page, withJson: false });
}

export function getHistoryEntry(db: Db, id: number): HistoryEntry {
  const row = historyRow(db, id);
  if (!row) throw new AppError('not_found', `no history entry with id ${id}`);
  return toEntry(row);
}

/** Removes the entries older than 30 days before `now`; returns how many. */
export function purgeHistory(db: Db, now: Date = new Date()): number {
  const cutoff = new Date(now.getTime() - HISTORY_RETENTION_DAYS * DAY_MS).toISOString();
  return deleteHistoryBefore(db, cutoff);
}
