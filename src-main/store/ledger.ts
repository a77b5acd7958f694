import type { Db } from './db.ts';
import { statement } from './statements.ts';

/** The local owner's account (migration 1): GUI and CLI runs are billed to it. */
export const OWNER_ACCOUNT_ID = 1;

export type LedgerKind = 'grant' | 'hold' | 'release' | 'charge';

export interface LedgerRow {
  id: number;
  account_id: number;
  kind: LedgerKind;
  amount_micro: number;
  hold_id: number | null;
  request_id: string | null;
  key_id: string | null;
  memo: string;
  meta: string | null;
  created_at: string;
}

/** A ledger row as the service hands it out: `meta` parsed. */
export type LedgerEntry = Omit<LedgerRow, 'meta'> & { meta: unknown };

export interface Balances {
  /** Grants minus charges. */
  balance_micro: number;
  /** The sum of the holds not yet closed by a release or a charge. */
  held_micro: number;
  /** What a new hold or charge may take: balance minus held. */
  available_micro: number;
}

export interface NewLedgerRow {
  account_id: number;
  kind: LedgerKind;
  amount_micro: number;
  hold_id?: number | null;
  request_id?: string | null;
  key_id?: string | null;
  memo: string;
  meta?: unknown;
}

/** Appends one row; the only write the ledger ever takes. Returns its id. */
export function appendLedgerRow(db: Db, row: NewLedgerRow): number {
  const result = statement(
    db,
    `INSERT INTO ledger (account_id, kind, amount_micro, hold_id, request_id, key_id, memo, meta)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.account_id,
    row.kind,
    row.amount_micro,
    row.hold_id ?? null,
    row.request_id ?? null,
    row.key_id ?? null,
    row.memo,
    row.meta === undefined ? null : JSON.stringify(row.meta),
  );
  return Number(result.lastInsertRowid);
}

export function ledgerRow(db: Db, id: number): LedgerRow | undefined {
  return statement(db, 'SELECT * FROM ledger WHERE id = ?').get(id) as LedgerRow | undefined;
}

/** The row that closed a hold (its release or charge), if any. */
export function closerOf(db: Db, holdId: number): LedgerRow | undefined {
  return statement(db, 'SELECT * FROM ledger WHERE hold_id = ?').get(holdId) as
    LedgerRow | undefined;
}

const toBalances = (balance: number, held: number): Balances => ({
  balance_micro: balance,
  held_micro: held,
  available_micro: balance - held,
});

/**
 * An account's balances, read from the running totals that a trigger keeps in
 * step with every ledger row (one indexed lookup, whatever the ledger's size).
 */
export function balances(db: Db, accountId: number): Balances {
  const row = statement(
    db,
    `SELECT granted_micro - charged_micro AS balance, held_micro AS held
       FROM ledger_totals WHERE account_id = ?`,
  ).get(accountId) as { balance: number; held: number } | undefined;
  return row ? toBalances(row.balance, row.held) : toBalances(0, 0);
}

/**
 * The definition of the balances, computed from the ledger rows alone by a
 * full scan of the account: what `balances` must always equal.
 */
export function recomputeBalances(db: Db, accountId: number): Balances {
  const row = statement(
    db,
    `SELECT
         (SELECT coalesce(sum(amount_micro), 0) FROM ledger
           WHERE account_id = @a AND kind = 'grant')
         - (SELECT coalesce(sum(amount_micro), 0) FROM ledger
           WHERE account_id = @a AND kind = 'charge') AS balance,
         (SELECT coalesce(sum(h.amount_micro), 0) FROM ledger h
           WHERE h.account_id = @a AND h.kind = 'hold'
             AND NOT EXISTS (SELECT 1 FROM ledger c WHERE c.hold_id = h.id)) AS held`,
  ).get({ a: accountId }) as { balance: number; held: number };
  return toBalances(row.balance, row.held);
}

/** Holds no release or charge has closed yet, oldest first (every account unless one is given). */
export function openHolds(db: Db, accountId?: number): LedgerRow[] {
  return statement(
    db,
    `SELECT * FROM ledger h
       WHERE h.kind = 'hold' AND (@a IS NULL OR h.account_id = @a)
         AND NOT EXISTS (SELECT 1 FROM ledger c WHERE c.hold_id = h.id)
       ORDER BY h.id`,
  ).all({ a: accountId ?? null }) as LedgerRow[];
}

const toEntry = (row: LedgerRow): LedgerEntry => ({
  ...row,
  meta: row.meta === null ? null : (JSON.parse(row.meta) as unknown),
});

/** An account's entries, newest first, `limit` of them, older than `beforeId` when given. */
export function ledgerEntries(
  db: Db,
  accountId: number,
  page: { limit: number; beforeId?: number },
): LedgerEntry[] {
  const rows = statement(
    db,
    `SELECT * FROM ledger
       WHERE account_id = @a AND (@before IS NULL OR id < @before)
       ORDER BY id DESC LIMIT @limit`,
  ).all({ a: accountId, before: page.beforeId ?? null, limit: page.limit }) as LedgerRow[];
  return rows.map(toEntry);
}

export interface DaySpend {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  charged_micro: number;
}

const DAY_MS = 86_400_000;

/**
 * Charges per UTC day for the last `days` days up to and including `now`'s
 * day, oldest first, days without charges included as zero.
 */
export function spendByDay(db: Db, accountId: number, days: number, now = new Date()): DaySpend[] {
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new RangeError(`days must be a positive whole number, got ${days}`);
  }
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const first = today - (days - 1) * DAY_MS;
  const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  const rows = statement(
    db,
    `SELECT substr(created_at, 1, 10) AS day, sum(amount_micro) AS charged_micro
       FROM ledger
       WHERE account_id = ? AND kind = 'charge' AND created_at >= ? AND created_at < ?
       GROUP BY day`,
  ).all(
    accountId,
    new Date(first).toISOString(),
    new Date(today + DAY_MS).toISOString(),
  ) as DaySpend[];
  const byDay = new Map(rows.map((r) => [r.day, r.charged_micro]));
  return Array.from({ length: days }, (_, i) => {
    const day = dayOf(first + i * DAY_MS);
    return { day, charged_micro: byDay.get(day) ?? 0 };
  });
}
