import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src-shared/errors.ts';
import { openDatabase, type Db } from '../../store/db.ts';
import { recomputeBalances } from '../../store/ledger.ts';
import {
  balances,
  charge,
  formatUsd,
  grant,
  ledgerEntries,
  openHolds,
  placeHold,
  releaseHold,
  releaseOpenHolds,
  settleHold,
} from './billing.ts';
import { recordHistory } from '../runs/history.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-billing-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CENT = 10_000;
const WELCOME = 5_000_000;

/** A fresh database with an empty second account (the owner's has the welcome credit). */
function withEmptyAccount(): Db {
  const db = openDatabase(':memory:');
  db.prepare("INSERT INTO accounts (id, name) VALUES (2, 'test')").run();
  return db;
}

function appErrorOf(work: () => unknown): AppError {
  try {
    work();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

const count = (db: Db, kind: string): number =>
  (db.prepare('SELECT count(*) AS n FROM ledger WHERE kind = ?').get(kind) as { n: number }).n;

describe('formatUsd', () => {
  it('prints whole cents with two decimals and keeps sub-cent digits', () => {
    expect(formatUsd(5_000_000)).toBe('$5.00');
    expect(formatUsd(10_000)).toBe('$0.01');
    expect(formatUsd(2_500_000)).toBe('$2.50');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(123)).toBe('$0.000123');
    expect(formatUsd(-30_000)).toBe('-$0.03');
  });
});

describe('holds and charges', () => {
  it('a hold then a settle leaves the right balances', () => {
    const db = openDatabase(':memory:');
    const hold = placeHold(db, { accountId: 1, micro: CENT, requestId: 'req_1' });
    expect(balances(db, 1)).toEqual({
      balance_micro: WELCOME,
      held_micro: CENT,
      available_micro: WELCOME - CENT,
    });
    settleHold(db, hold, { chargeMicro: 7 * CENT, meta: { usage: { 'svc-fix-1': 1234 } } });
    expect(balances(db, 1)).toEqual({
      balance_micro: WELCOME - 7 * CENT,
      held_micro: 0,
      available_micro: WELCOME - 7 * CENT,
    });
    const [latest] = ledgerEntries(db, 1, { limit: 1 });
    expect(latest).toMatchObject({
      kind: 'charge',
      amount_micro: 7 * CENT,
      hold_id: hold,
      request_id: 'req_1',
      meta: { usage: { 'svc-fix-1': 1234 } },
    });
  });

  it('refuses a hold larger than what is available', () => {
    const db = withEmptyAccount();
    grant(db, 2, 2 * CENT, 'test');
    placeHold(db, { accountId: 2, micro: CENT, requestId: 'a' });
    placeHold(db, { accountId: 2, micro: CENT, requestId: 'b' });
    const error = appErrorOf(() => placeHold(db, { accountId: 2, micro: CENT, requestId: 'c' }));
    expect(error.code).toBe('insufficient_quota');
    expect(error.message).toMatch(/\$0\.00 is available/);
    expect(count(db, 'hold')).toBe(2);
  });

  it('settling over the balance releases the hold, charges nothing and throws insufficient_quota', () => {
    const db = withEmptyAccount();
    grant(db, 2, 5 * CENT, 'test');
    const hold = placeHold(db, { accountId: 2, micro: CENT, requestId: 'big' });
    const error = appErrorOf(() => settleHold(db, hold, { chargeMicro: 6 * CENT }));
    expect(error.code).toBe('insufficient_quota');
    expect(error.message).toBe(
      'the request cost $0.06 but the balance is $0.05; nothing was charged',
    );
    expect(balances(db, 2)).toEqual({
      balance_micro: 5 * CENT,
      held_micro: 0,
      available_micro: 5 * CENT,
    });
    expect(count(db, 'release')).toBe(1);
    expect(count(db, 'charge')).toBe(0);
  });

  it('counts the other open holds against a settle', () => {
    const db = withEmptyAccount();
    grant(db, 2, 5 * CENT, 'test');
    const mine = placeHold(db, { accountId: 2, micro: CENT, requestId: 'mine' });
    placeHold(db, { accountId: 2, micro: 3 * CENT, requestId: 'other' });
    const error = appErrorOf(() => settleHold(db, mine, { chargeMicro: 3 * CENT }));
    expect(error.message).toMatch(/balance is \$0\.02 \(after \$0\.03 held by other requests/);
    const next = placeHold(db, { accountId: 2, micro: CENT, requestId: 'next' });
    settleHold(db, next, { chargeMicro: 2 * CENT }); // exactly what is left
    expect(balances(db, 2)).toEqual({
      balance_micro: 3 * CENT,
      held_micro: 3 * CENT,
      available_micro: 0,
    });
  });

  it('closing a closed hold, or something that is not a hold, is a bug and throws', () => {
    const db = openDatabase(':memory:');
    const hold = placeHold(db, { accountId: 1, micro: CENT, requestId: 'r' });
    releaseHold(db, hold, 'failed');
    expect(() => releaseHold(db, hold, 'again')).toThrow(/already closed \(by release/);
    expect(() => settleHold(db, hold, { chargeMicro: CENT })).toThrow(/already closed/);
    expect(() => releaseHold(db, 1, 'x')).toThrow(/not a hold/); // entry 1 is the welcome grant
    expect(() => releaseHold(db, 999, 'x')).toThrow(/not a hold/);
    expect(count(db, 'release')).toBe(1);
  });

  it('writes onCharged with the charge atomically, and nothing when it throws', () => {
    const db = openDatabase(':memory:');
    const hold = placeHold(db, { accountId: 1, micro: CENT, requestId: 'r' });
    const entry = {
      requestId: 'r',
      operation: 'fix' as const,
      source: 'http' as const,
      input: [1],
      output: [1],
      costMicro: 2 * CENT,
    };
    expect(() =>
      settleHold(db, hold, {
        chargeMicro: 2 * CENT,
        onCharged: () => {
          recordHistory(db, entry);
          throw new Error('disk full');
        },
      }),
    ).toThrow('disk full');
    expect(count(db, 'charge')).toBe(0);
    expect(db.prepare('SELECT count(*) AS n FROM history').get()).toEqual({ n: 0 });
    expect(openHolds(db).map((h) => h.id)).toEqual([hold]);
    settleHold(db, hold, { chargeMicro: 2 * CENT, onCharged: () => recordHistory(db, entry) });
    expect(count(db, 'charge')).toBe(1);
    expect(db.prepare('SELECT count(*) AS n FROM history').get()).toEqual({ n: 1 });
  });

  it('refuses to settle inside an enclosing transaction (its rollback would reopen the hold)', () => {
    const db = withEmptyAccount();
    grant(db, 2, CENT, 'test');
    const hold = placeHold(db, { accountId: 2, micro: CENT, requestId: 'r' });
    expect(() =>
      db.transaction(() => settleHold(db, hold, { chargeMicro: 5 * CENT })).immediate(),
    ).toThrow(/must not run inside a transaction/);
    expect(openHolds(db)).toHaveLength(1);
  });

  it('charges without a hold but never below what open holds reserve', () => {
    const db = withEmptyAccount();
    grant(db, 2, 10 * CENT, 'test');
    placeHold(db, { accountId: 2, micro: 4 * CENT, requestId: 'in flight' });
    charge(db, {
      accountId: 2,
      chargeMicro: 6 * CENT,
      memo: 'svc fix data.jsonl',
      requestId: 'cli_1',
    });
    const error = appErrorOf(() => charge(db, { accountId: 2, chargeMicro: CENT, memo: 'more' }));
    expect(error.code).toBe('insufficient_quota');
    expect(balances(db, 2)).toEqual({
      balance_micro: 4 * CENT,
      held_micro: 4 * CENT,
      available_micro: 0,
    });
  });

  it('refuses amounts that are not positive whole micro-USD', () => {
    const db = openDatabase(':memory:');
    expect(() => grant(db, 1, 0, 'x')).toThrow(RangeError);
    expect(() => grant(db, 1, 1.5, 'x')).toThrow(RangeError);
    expect(() => placeHold(db, { accountId: 1, micro: -1, requestId: 'r' })).toThrow(RangeError);
    expect(() => charge(db, { accountId: 1, chargeMicro: Number.NaN, memo: 'x' })).toThrow(
      RangeError,
    );
  });
});

const DB_MODULE = pathToFileURL(join(import.meta.dirname, '..', '..', 'store', 'db.ts')).href;
const BILLING_MODULE = pathToFileURL(join(import.meta.dirname, 'billing.ts')).href;

interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs an ES module script in a separate Node process (its own SQLite connection). */
function runNode(script: string, args: string[] = []): Promise<NodeRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script, ...args],
      { cwd: join(import.meta.dirname, '..', '..', '..') },
      (error, stdout, stderr) => {
        const failure = error as (Error & { code?: unknown; signal?: NodeJS.Signals }) | null;
        resolve({
          code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0,
          signal: failure?.signal ?? null,
          stdout,
          stderr,
        });
      },
    );
  });
}

describe('crash safety', () => {
  it('releases the holds a closed process left open; settled charges stay', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    const settled = placeHold(db, { accountId: 1, micro: CENT, requestId: 'done' });
    settleHold(db, settled, { chargeMicro: 3 * CENT });
    placeHold(db, { accountId: 1, micro: CENT, requestId: 'lost 1' });
    placeHold(db, { accountId: 1, micro: CENT, requestId: 'lost 2' });
    db.close();

    const reopened = openDatabase(dir);
    expect(openHolds(reopened)).toHaveLength(2);
    expect(releaseOpenHolds(reopened)).toBe(2);
    expect(openHolds(reopened)).toEqual([]);
    expect(releaseOpenHolds(reopened)).toBe(0);
    expect(balances(reopened, 1)).toEqual({
      balance_micro: WELCOME - 3 * CENT,
      held_micro: 0,
      available_micro: WELCOME - 3 * CENT,
    });
    expect(ledgerEntries(reopened, 1, { limit: 2 }).map((e) => e.memo)).toEqual([
      'released at startup',
      'released at startup',
    ]);
    reopened.close();
  });

  it('after kill -9 mid-run, every committed charge survives and no hold stays open', async () => {
    const dir = tempDir();
    const script = `
      import { openDatabase } from ${JSON.stringify(DB_MODULE)};
      import { placeHold, settleHold } from ${JSON.stringify(BILLING_MODULE)};
      const db = openDatabase(process.argv[1]);
      const holds = [];
      for (let i = 0; i < 5; i++) holds.push(placeHold(db, { accountId: 1, micro: 10000, requestId: 'r' + i }));
      for (const hold of holds.slice(0, 3)) settleHold(db, hold, { chargeMicro: 20000 });
      process.kill(process.pid, 'SIGKILL');
    `;
    const run = await runNode(script, [dir]);
    expect(run.signal).toBe('SIGKILL');

    const db = openDatabase(dir);
    expect(count(db, 'charge')).toBe(3);
    expect(openHolds(db)).toHaveLength(2);
    expect(releaseOpenHolds(db)).toBe(2);
    expect(openHolds(db)).toEqual([]);
    expect(balances(db, 1)).toEqual({
      balance_micro: WELCOME - 6 * CENT,
      held_micro: 0,
      available_micro: WELCOME - 6 * CENT,
    });
    expect(recomputeBalances(db, 1)).toEqual(balances(db, 1));
    db.close();
  });
});

describe('concurrency', () => {
  it('50 one-cent requests from 5 processes against 10 cents: exactly 10 succeed', async () => {
    const dir = tempDir();
    const setup = openDatabase(dir);
    setup.prepare("INSERT INTO accounts (id, name) VALUES (2, 'race')").run();
    grant(setup, 2, 10 * CENT, 'ten cents');
    setup.close();

    const script = `
      import { openDatabase } from ${JSON.stringify(DB_MODULE)};
      import { placeHold, settleHold } from ${JSON.stringify(BILLING_MODULE)};
      const [dir, worker, startAt] = process.argv.slice(1);
      const db = openDatabase(dir);
      while (Date.now() < Number(startAt)) {} // start together
      let ok = 0, refused = 0;
      for (let i = 0; i < 10; i++) {
        try {
          const hold = placeHold(db, { accountId: 2, micro: 10000, requestId: worker + '-' + i });
          settleHold(db, hold, { chargeMicro: 10000 });
          ok++;
        } catch (error) {
          if (error.code !== 'insufficient_quota') throw error;
          refused++;
        }
      }
      db.close();
      console.log(JSON.stringify({ ok, refused }));
    `;
    const startAt = String(Date.now() + 1500);
    const runs = await Promise.all(
      Array.from({ length: 5 }, (_, worker) => runNode(script, [dir, `w${worker}`, startAt])),
    );
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0 });
    const results = runs.map((run) => JSON.parse(run.stdout) as { ok: number; refused: number });
    expect(results.reduce((sum, r) => sum + r.ok, 0)).toBe(10);
    expect(results.reduce((sum, r) => sum + r.refused, 0)).toBe(40);

    const db = openDatabase(dir);
    expect(balances(db, 2)).toEqual({ balance_micro: 0, held_micro: 0, available_micro: 0 });
    expect(recomputeBalances(db, 2)).toEqual(balances(db, 2));
    const rows = db
      .prepare(
        'SELECT kind, count(*) AS n, sum(amount_micro) AS s FROM ledger WHERE account_id = 2 GROUP BY kind ORDER BY kind',
      )
      .all();
    expect(rows).toEqual([
      { kind: 'charge', n: 10, s: 10 * CENT },
      { kind: 'grant', n: 1, s: 10 * CENT },
      { kind: 'hold', n: 10, s: 10 * CENT },
    ]);
    db.close();
  });
});

type Op =
  | { t: 'grant'; micro: number }
  | { t: 'hold'; micro: number }
  | { t: 'settle'; pick: number; micro: number }
  | { t: 'release'; pick: number }
  | { t: 'charge'; micro: number };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('grant' as const), micro: fc.integer({ min: 1, max: 200_000 }) }),
  fc.record({ t: fc.constant('hold' as const), micro: fc.integer({ min: 1, max: 50_000 }) }),
  fc.record({
    t: fc.constant('settle' as const),
    pick: fc.nat(),
    micro: fc.integer({ min: 1, max: 80_000 }),
  }),
  fc.record({ t: fc.constant('release' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('charge' as const), micro: fc.integer({ min: 1, max: 50_000 }) }),
);

describe('properties', () => {
  it('any sequence of operations keeps the ledger consistent with a simple model', () => {
    fc.assert(
      fc.property(fc.array(opArbitrary, { maxLength: 40 }), (ops) => {
        const db = withEmptyAccount();
        const model = { granted: 0, charged: 0, open: new Map<number, number>() };
        const holds: number[] = [];
        const held = () => [...model.open.values()].reduce((a, b) => a + b, 0);
        for (const op of ops) {
          const available = model.granted - model.charged - held();
          switch (op.t) {
            case 'grant':
              grant(db, 2, op.micro, 'p');
              model.granted += op.micro;
              break;
            case 'hold':
              if (op.micro > available) {
                expect(
                  appErrorOf(() => placeHold(db, { accountId: 2, micro: op.micro, requestId: 'p' }))
                    .code,
                ).toBe('insufficient_quota');
              } else {
                const id = placeHold(db, { accountId: 2, micro: op.micro, requestId: 'p' });
                holds.push(id);
                model.open.set(id, op.micro);
              }
              break;
            case 'charge':
              if (op.micro > available) {
                expect(
                  appErrorOf(() => charge(db, { accountId: 2, chargeMicro: op.micro, memo: 'p' }))
                    .code,
                ).toBe('insufficient_quota');
              } else {
                charge(db, { accountId: 2, chargeMicro: op.micro, memo: 'p' });
                model.charged += op.micro;
              }
              break;
            case 'settle':
            case 'release': {
              if (holds.length === 0) break;
              const id = holds[op.pick % holds.length]!;
              const amount = model.open.get(id);
              const close = () =>
                op.t === 'settle'
                  ? settleHold(db, id, { chargeMicro: op.micro })
                  : releaseHold(db, id, 'p');
              if (amount === undefined) {
                expect(close).toThrow(/already closed/);
                break;
              }
              if (op.t === 'settle' && op.micro > available + amount) {
                expect(appErrorOf(close).code).toBe('insufficient_quota');
              } else {
                close();
                if (op.t === 'settle') model.charged += op.micro;
              }
              model.open.delete(id);
              break;
            }
          }
          const derived = balances(db, 2);
          expect(derived).toEqual({
            balance_micro: model.granted - model.charged,
            held_micro: held(),
            available_micro: model.granted - model.charged - held(),
          });
          expect(derived.available_micro).toBeGreaterThanOrEqual(0);
          expect(recomputeBalances(db, 2)).toEqual(derived);
        }
        // Recomputed from the raw rows, independently of balances().
        const rows = db
          .prepare('SELECT kind, amount_micro FROM ledger WHERE account_id = 2')
          .all() as {
          kind: string;
          amount_micro: number;
        }[];
        const sum = (kind: string) =>
          rows.filter((r) => r.kind === kind).reduce((a, r) => a + r.amount_micro, 0);
        expect(sum('grant') - sum('charge')).toBe(balances(db, 2).balance_micro);
        expect(balances(db, 2)).toEqual(recomputeBalances(db, 2));
        const closedTwice = db
          .prepare(
            'SELECT hold_id FROM ledger WHERE hold_id IS NOT NULL GROUP BY hold_id HAVING count(*) > 1',
          )
          .all();
        expect(closedTwice).toEqual([]);
        db.close();
      }),
      { numRuns: 150 },
    );
  });
});
