import { AppError } from '../../../src-shared/errors.ts';
import { durable, unsynced } from '../../store/commit.ts';
import type { Db } from '../../store/db.ts';
import {
  appendLedgerRow,
  balances,
  closerOf,
  ledgerRow,
  openHolds,
  type LedgerRow,
} from '../../store/ledger.ts';
import { MICRO_PER_USD } from './money.ts';

export {
  balances,
  ledgerEntries,
  openHolds,
  OWNER_ACCOUNT_ID,
  recomputeBalances,
  spendByDay,
  type Balances,
  type DaySpend,
  type LedgerEntry,
  type LedgerKind,
} from '../../store/ledger.ts';

/*
 * Billing: every amount is an integer of micro-USD, and every balance is
 * derived from the append-only ledger (balance = grants - charges; held = open
 * holds; available = balance - held). `balances` reads per-account running
 * totals that a trigger updates in the same statement as each ledger row, so
 * a request costs the same with ten rows or ten million; `recomputeBalances`
 * is the same figure by a full scan (the definition, and the tests' check).
 *
 * Crash safety. Each money movement is one `BEGIN IMMEDIATE` transaction: it
 * takes SQLite's write lock before reading the balance, so the check and the
 * row it justifies are atomic across connections and processes (no
 * check-then-act race; other writers wait on busy_timeout). The database runs
 * in WAL mode with synchronous=FULL (store/db.ts): a charge, a grant and the
 * start-up release commit durably (COMMIT returns once the WAL is on disk),
 * so a settled charge survives kill -9 and a power cut. A hold and a release
 * commit unsynced (store/commit.ts): written, so they survive kill -9, but
 * not fsync'd, so a request pays one fsync, at its settle, which carries its
 * hold to disk with it. A power cut can drop only the unsynced tail of the
 * WAL: a hold whose request had not settled (nothing was charged or
 * delivered against it) or a release (its hold is open again).
 *
 * What a crash can leave behind is therefore a hold whose request never
 * finished; `releaseOpenHolds` runs at start-up, before the server accepts
 * requests, and closes each with a release, so no credit stays reserved. A
 * request is therefore charged at most once (the hold's closer is unique)
 * and never charged for work whose result was not delivered, as long as the
 * caller settles before it sends the response.
 *
 * The start-up pass assumes one server per data directory: a second process
 * running it would release the first one's holds in flight (their settle then
 * fails loudly as "already closed").
 */

/** `$1.50`: dollars with whole cents; sub-cent amounts keep their digits (`$0.000123`). */
export function formatUsd(micro: number): string {
  const sign = micro < 0 ? '-' : '';
  const abs = Math.abs(micro);
  const dollars = Math.floor(abs / MICRO_PER_USD);
  const fraction = String(abs % MICRO_PER_USD)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${sign}$${dollars}.${fraction}`;
}

function assertAmount(micro: number, what: string): void {
  if (!Number.isSafeInteger(micro) || micro <= 0) {
    throw new RangeError(`${what} must be a positive whole number of micro-USD, got ${micro}`);
  }
}

/** `insufficient_quota` unless the account's available balance covers `micro`; `why` says so. */
function assertAvailable(
  db: Db,
  accountId: number,
  micro: number,
  why: (available: string) => string,
): void {
  const { available_micro } = balances(db, accountId);
  if (available_micro < micro) {
    throw new AppError('insufficient_quota', why(formatUsd(Math.max(0, available_micro))));
  }
}

/** The row that closes a hold without a charge. */
function appendRelease(db: Db, hold: LedgerRow, memo: string): number {
  return appendLedgerRow(db, {
    account_id: hold.account_id,
    kind: 'release',
    amount_micro: hold.amount_micro,
    hold_id: hold.id,
    request_id: hold.request_id,
    key_id: hold.key_id,
    memo,
  });
}

/** The hold with this id, open; anything else is a bug in the caller, not a user error. */
function openHold(db: Db, holdId: number): LedgerRow {
  const hold = ledgerRow(db, holdId);
  if (hold?.kind !== 'hold') throw new Error(`ledger entry ${holdId} is not a hold`);
  const closer = closerOf(db, holdId);
  if (closer) {
    throw new Error(`hold ${holdId} is already closed (by ${closer.kind} ${closer.id})`);
  }
  return hold;
}

export function grant(db: Db, accountId: number, micro: number, memo: string): number {
  assertAmount(micro, 'a grant');
  return durable(db, () =>
    appendLedgerRow(db, { account_id: accountId, kind: 'grant', amount_micro: micro, memo }),
  );
}

export interface HoldRequest {
  accountId: number;
  micro: number;
  requestId: string;
  keyId?: string | null;
  memo?: string;
}

/** Reserves `micro` for a request starting now; `insufficient_quota` when it is not available. */
export function placeHold(db: Db, request: HoldRequest): number {
  assertAmount(request.micro, 'a hold');
  // Not fsync'd: see "Crash safety" above. The settle's durable commit carries it to disk.
  return unsynced(db, () => {
    assertAvailable(
      db,
      request.accountId,
      request.micro,
      (available) =>
        `insufficient credit: starting a request holds ${formatUsd(request.micro)} but ` +
        `${available} is available; add credit in the app or with \`svc credits add\``,
    );
    return appendLedgerRow(db, {
      account_id: request.accountId,
      kind: 'hold',
      amount_micro: request.micro,
      request_id: request.requestId,
      key_id: request.keyId ?? null,
      memo: request.memo ?? 'request started',
    });
  });
}

export interface Settlement {
  chargeMicro: number;
  /** Stored as JSON on the charge, e.g. token usage per model. */
  meta?: unknown;
  memo?: string;
  /**
   * Writes that must land with the charge or not at all (e.g. the history
   * entry): run inside the same transaction, right after the charge row. If it
   * throws, nothing is written, the hold stays open (release it) and the error
   * propagates.
   */
  onCharged?: (chargeId: number) => void;
}

/**
 * Closes a hold with the request's real charge. When the balance, less the
 * other open holds, cannot cover it, the hold is released instead (committed)
 * and `insufficient_quota` is thrown: the request fails and costs nothing.
 *
 * It must not be called inside an enclosing transaction: the error thrown
 * after the release would roll the release back with the enclosing
 * transaction and leave the hold open. Use `onCharged` for writes that belong
 * with the charge.
 */
export function settleHold(db: Db, holdId: number, settlement: Settlement): void {
  assertAmount(settlement.chargeMicro, 'a charge');
  if (db.inTransaction) {
    throw new Error(
      'settleHold must not run inside a transaction (a shortfall commits a release that the ' +
        'enclosing transaction would roll back); pass onCharged for writes that go with the charge',
    );
  }
  const shortfall = durable(db, () => {
    const hold = openHold(db, holdId);
    const { balance_micro, held_micro } = balances(db, hold.account_id);
    const otherHeld = held_micro - hold.amount_micro;
    const coverable = balance_micro - otherHeld;
    if (coverable < settlement.chargeMicro) {
      appendRelease(db, hold, 'released: the balance could not cover the charge');
      return { coverable, otherHeld };
    }
    const chargeId = appendLedgerRow(db, {
      account_id: hold.account_id,
      hold_id: hold.id,
      request_id: hold.request_id,
      key_id: hold.key_id,
      kind: 'charge',
      amount_micro: settlement.chargeMicro,
      memo: settlement.memo ?? 'request finished',
      meta: settlement.meta,
    });
    settlement.onCharged?.(chargeId);
    return undefined;
  });
  if (shortfall) {
    const inFlight =
      shortfall.otherHeld > 0
        ? ` (after ${formatUsd(shortfall.otherHeld)} held by other requests in flight)`
        : '';
    throw new AppError(
      'insufficient_quota',
      `the request cost ${formatUsd(settlement.chargeMicro)} but the balance is ` +
        `${formatUsd(Math.max(0, shortfall.coverable))}${inFlight}; nothing was charged`,
    );
  }
}

/** Closes a hold without charging (the request failed or was cancelled). */
export function releaseHold(db: Db, holdId: number, memo = 'released: the request failed'): void {
  // Not fsync'd: a release a power cut drops leaves its hold open, and start-up releases it.
  unsynced(db, () => appendRelease(db, openHold(db, holdId), memo));
}

export interface DirectCharge {
  accountId: number;
  chargeMicro: number;
  requestId?: string | null;
  keyId?: string | null;
  meta?: unknown;
  memo: string;
}

/**
 * A charge without a hold (app and CLI runs, billed when they finish). It never
 * takes the balance below what open holds reserve: `insufficient_quota` instead.
 */
export function charge(db: Db, request: DirectCharge): number {
  assertAmount(request.chargeMicro, 'a charge');
  return durable(db, () => {
    assertAvailable(
      db,
      request.accountId,
      request.chargeMicro,
      (available) =>
        `the run cost ${formatUsd(request.chargeMicro)} but ${available} is available; ` +
        'nothing was charged',
    );
    return appendLedgerRow(db, {
      account_id: request.accountId,
      kind: 'charge',
      amount_micro: request.chargeMicro,
      request_id: request.requestId ?? null,
      key_id: request.keyId ?? null,
      memo: request.memo,
      meta: request.meta,
    });
  });
}

/**
 * The start-up pass after a crash: releases every open hold, in one
 * transaction, before the server accepts requests. Returns how many.
 */
export function releaseOpenHolds(db: Db): number {
  return durable(db, () => {
    const holds = openHolds(db);
    for (const hold of holds) appendRelease(db, hold, 'released at startup');
    return holds.length;
  });
}
