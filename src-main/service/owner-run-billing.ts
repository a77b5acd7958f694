import { AppError } from '../../src-shared/errors.ts';
import type { Operation } from '../../src-shared/schemas/config.ts';
import type { Db } from '../store/db.ts';
import { balances, charge, formatUsd, OWNER_ACCOUNT_ID } from './billing.ts';
import { RunBill } from './run-bill.ts';
import { recordHistory, type HistorySource } from './history.ts';
import { MINIMUM_CHARGE_MICRO } from './money.ts';

/** Refuses to start an owner's run without a cent of available credit; `hint` says where to add some. */
export function assertOwnerCanStart(db: Db, hint: string): void {
  const { available_micro } = balances(db, OWNER_ACCOUNT_ID);
  if (available_micro < MINIMUM_CHARGE_MICRO) {
    throw new AppError(
      'insufficient_quota',
      `insufficient credit: ${formatUsd(Math.max(0, available_micro))} is available; ${hint}`,
    );
  }
}

/** Where a run stood when its credit ran out, for the caller's own words. */
export interface OutOfCredit {
  /** Samples paid for and kept before the batch that could not be. */
  done: number;
  owedMicro: number;
  availableMicro: number;
  chargedMicro: number;
}

export interface OwnerRun {
  id: string;
  operation: Operation;
  /** What the ledger memo names after the operation (a file, a dataset). */
  label: string;
  source: HistorySource;
  /** More to keep with each charge (e.g. the dataset's id). */
  meta?: Record<string, unknown>;
  /** The message of the error that stops the run when the credit runs out. */
  outOfCredit: (where: OutOfCredit) => string;
}

/**
 * Billing of a run on the owner's own account (the app's runs, and
 * `svc audit|fix|refine FILE`): no hold and no per-request cap, but charged
 * batch by batch as it goes (see RunBill: the whole run's token cost rounded
 * up to the cent, at least a cent), with fix and refine history, so running
 * out of credit stops it and nothing is kept unpaid.
 */
export class OwnerRunBilling {
  readonly #db: Db;
  readonly #run: OwnerRun;
  readonly #bill = new RunBill();
  #batches = 0;
  #samples = 0;

  constructor(db: Db, run: OwnerRun) {
    this.#db = db;
    this.#run = run;
  }

  /**
   * Pays for a finished batch, records its history and runs `keep` (what the
   * caller stores of the batch) in one immediate transaction: a batch's
   * results are kept exactly when they are paid for. Throws
   * `insufficient_quota` (the run's `outOfCredit` message) when the credit
   * cannot cover it, and then nothing of the batch is kept.
   */
  payBatch(
    batch: {
      tokenCostMicro: number;
      usage: unknown;
      input: readonly unknown[];
      output: readonly unknown[];
    },
    keep?: (charged: { owedMicro: number; totalMicro: number }) => void,
  ): void {
    const { id, operation, source } = this.#run;
    const owed = this.#bill.owed(batch.tokenCostMicro);
    const number = this.#batches + 1;
    this.#db
      .transaction(() => {
        if (owed > 0) this.#charge(owed, batch, number);
        if (operation !== 'audit') {
          recordHistory(this.#db, {
            requestId: id,
            operation,
            source,
            input: batch.input,
            output: batch.output,
            costMicro: owed,
          });
        }
        keep?.({ owedMicro: owed, totalMicro: this.#bill.chargedMicro + owed });
      })
      .immediate();
    this.#bill.paid(batch.tokenCostMicro, owed);
    this.#batches = number;
    this.#samples += batch.input.length;
  }

  #charge(
    owed: number,
    batch: { tokenCostMicro: number; usage: unknown; input: readonly unknown[] },
    number: number,
  ): void {
    const { id, operation, label, source, meta } = this.#run;
    try {
      charge(this.#db, {
        accountId: OWNER_ACCOUNT_ID,
        chargeMicro: owed,
        requestId: id,
        memo: `${source} ${operation} ${label}, batch ${number} (${batch.input.length} samples)`,
        meta: {
          operation,
          ...meta,
          usage: batch.usage,
          token_cost_micro: batch.tokenCostMicro,
        },
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'insufficient_quota') throw error;
      const { available_micro } = balances(this.#db, OWNER_ACCOUNT_ID);
      throw new AppError(
        'insufficient_quota',
        this.#run.outOfCredit({
          done: this.#samples,
          owedMicro: owed,
          availableMicro: Math.max(0, available_micro),
          chargedMicro: this.#bill.chargedMicro,
        }),
        { cause: error },
      );
    }
  }

  get chargedMicro(): number {
    return this.#bill.chargedMicro;
  }
}
