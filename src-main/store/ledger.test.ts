import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './db.ts';
import {
  appendLedgerRow,
  balances,
  closerOf,
  ledgerEntries,
  openHolds,
  OWNER_ACCOUNT_ID,
  recomputeBalances,
  spendByDay,
} from './ledger.ts';

const fresh = (): Db => openDatabase(':memory:');

describe('ledger table (migration 2)', () => {
  it('starts with the welcome credit of USD 5.00 for the owner', () => {
    const db = fresh();
    expect(db.prepare('SELECT account_id, kind, amount_micro, memo FROM ledger').all()).toEqual([
      { account_id: 1, kind: 'grant', amount_micro: 5_000_000, memo: 'welcome credit' },
    ]);
    expect(balances(db, OWNER_ACCOUNT_ID)).toEqual({
      balance_micro: 5_000_000,
      held_micro: 0,
      available_micro: 5_000_000,
    });
  });

  it('refuses UPDATE and DELETE (append-only)', () => {
    const db = fresh();
    expect(() => db.prepare('UPDATE ledger SET amount_micro = 1').run()).toThrow(/append-only/);
    expect(() => db.prepare("UPDATE ledger SET memo = 'x' WHERE id = 1").run()).toThrow(
      /append-only/,
    );
    expect(() => db.prepare('DELETE FROM ledger').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT count(*) AS n, sum(amount_micro) AS s FROM ledger').get()).toEqual({
      n: 1,
      s: 5_000_000,
    });
  });

  it('refuses amounts that are not positive integers and unknown kinds', () => {
    const db = fresh();
    const insert = db.prepare(
      'INSERT INTO ledger (account_id, kind, amount_micro) VALUES (1, ?, ?)',
    );
    expect(() => insert.run('grant', 0)).toThrow(/CHECK/);
    expect(() => insert.run('grant', -5)).toThrow(/CHECK/);
    expect(() => insert.run('grant', 1.5)).toThrow(/CHECK/);
    expect(() => insert.run('refund', 5)).toThrow(/CHECK/);
    expect(() => insert.run('release', 5)).toThrow(/CHECK/); // a release needs its hold
  });

  it('lets a hold be closed once, only by its own account, a release freeing exactly the hold', () => {
    const db = fresh();
    db.prepare("INSERT INTO accounts (id, name) VALUES (2, 'other')").run();
    const hold = appendLedgerRow(db, {
      account_id: 1,
      kind: 'hold',
      amount_micro: 10_000,
      memo: 'h',
    });
    const close = (kind: 'release' | 'charge', amount: number, account = 1, holdId = hold) =>
      appendLedgerRow(db, {
        account_id: account,
        kind,
        amount_micro: amount,
        hold_id: holdId,
        memo: 'c',
      });
    expect(() => close('release', 9_999)).toThrow(/exactly the amount/);
    expect(() => close('charge', 20_000, 2)).toThrow(/same account/);
    expect(() => close('charge', 20_000, 1, 1)).toThrow(/hold of the same account/); // 1 is a grant
    expect(() =>
      appendLedgerRow(db, {
        account_id: 1,
        kind: 'grant',
        amount_micro: 1,
        hold_id: hold,
        memo: '',
      }),
    ).toThrow(/CHECK/);
    const charge = close('charge', 30_000);
    expect(closerOf(db, hold)?.id).toBe(charge);
    expect(() => close('release', 10_000)).toThrow(/UNIQUE/);
    expect(() => close('charge', 10_000)).toThrow(/UNIQUE/);
  });
});

describe('ledger totals', () => {
  it('follow every row and ignore statements that failed', () => {
    const db = fresh();
    expect(db.prepare('SELECT * FROM ledger_totals').all()).toEqual([
      { account_id: 1, granted_micro: 5_000_000, charged_micro: 0, held_micro: 0 },
    ]);
    const hold = appendLedgerRow(db, {
      account_id: 1,
      kind: 'hold',
      amount_micro: 10_000,
      memo: '',
    });
    appendLedgerRow(db, {
      account_id: 1,
      kind: 'release',
      amount_micro: 10_000,
      hold_id: hold,
      memo: '',
    });
    expect(() =>
      appendLedgerRow(db, {
        account_id: 1,
        kind: 'charge',
        amount_micro: 10_000,
        hold_id: hold,
        memo: '',
      }),
    ).toThrow(/UNIQUE/);
    expect(db.prepare('SELECT * FROM ledger_totals').all()).toEqual([
      { account_id: 1, granted_micro: 5_000_000, charged_micro: 0, held_micro: 0 },
    ]);
    expect(recomputeBalances(db, 1)).toEqual(balances(db, 1));
  });
});

describe('ledger queries', () => {
  it('derives balance, held and available from the rows', () => {
    const db = fresh();
    const h1 = appendLedgerRow(db, { account_id: 1, kind: 'hold', amount_micro: 10_000, memo: '' });
    const h2 = appendLedgerRow(db, { account_id: 1, kind: 'hold', amount_micro: 20_000, memo: '' });
    appendLedgerRow(db, { account_id: 1, kind: 'hold', amount_micro: 40_000, memo: '' });
    appendLedgerRow(db, {
      account_id: 1,
      kind: 'charge',
      amount_micro: 70_000,
      hold_id: h1,
      memo: '',
    });
    appendLedgerRow(db, {
      account_id: 1,
      kind: 'release',
      amount_micro: 20_000,
      hold_id: h2,
      memo: '',
    });
    appendLedgerRow(db, { account_id: 1, kind: 'charge', amount_micro: 5_000, memo: 'direct' });
    expect(balances(db, 1)).toEqual({
      balance_micro: 5_000_000 - 75_000,
      held_micro: 40_000,
      available_micro: 5_000_000 - 75_000 - 40_000,
    });
    // The running totals agree with the definition (a scan of the rows).
    expect(recomputeBalances(db, 1)).toEqual(balances(db, 1));
    expect(openHolds(db).map((h) => h.amount_micro)).toEqual([40_000]);
    expect(balances(db, 99)).toEqual({ balance_micro: 0, held_micro: 0, available_micro: 0 });
    expect(recomputeBalances(db, 99)).toEqual(balances(db, 99));
  });

  it('pages entries newest first and parses meta', () => {
    const db = fresh();
    for (let i = 0; i < 5; i++) {
      appendLedgerRow(db, {
        account_id: 1,
        kind: 'charge',
        amount_micro: 10_000 * (i + 1),
        memo: `c${i}`,
        meta: { i },
      });
    }
    const first = ledgerEntries(db, 1, { limit: 3 });
    expect(first.map((e) => e.memo)).toEqual(['c4', 'c3', 'c2']);
    expect(first[0]?.meta).toEqual({ i: 4 });
    const next = ledgerEntries(db, 1, { limit: 3, beforeId: first[2]!.id });
    expect(next.map((e) => e.memo)).toEqual(['c1', 'c0', 'welcome credit']);
    expect(next[2]?.meta).toBeNull();
  });

  it('sums charges per UTC day, including days without any', () => {
    const db = fresh();
    const add = (at: string, micro: number, kind = 'charge') =>
      db
        .prepare(
          'INSERT INTO ledger (account_id, kind, amount_micro, created_at) VALUES (1, ?, ?, ?)',
        )
        .run(kind, micro, at);
    add('2025-03-01T23:59:59.999Z', 10_000); // before the range
    add('2025-03-02T00:00:00.000Z', 20_000);
    add('2025-03-02T12:00:00.000Z', 30_000);
    add('2025-03-02T13:00:00.000Z', 99_000, 'grant'); // not spend
    add('2025-03-04T23:59:59.999Z', 40_000);
    add('2025-03-05T00:00:00.000Z', 50_000); // after `now`'s day
    const now = new Date('2025-03-04T08:00:00Z');
    expect(spendByDay(db, 1, 3, now)).toEqual([
      { day: '2025-03-02', charged_micro: 50_000 },
      { day: '2025-03-03', charged_micro: 0 },
      { day: '2025-03-04', charged_micro: 40_000 },
    ]);
    expect(spendByDay(db, 1, 1, now)).toEqual([{ day: '2025-03-04', charged_micro: 40_000 }]);
    expect(() => spendByDay(db, 1, 0, now)).toThrow(RangeError);
  });
});
