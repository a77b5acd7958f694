import { AppError } from '../../src-shared/errors.ts';
import type { Operation } from '../../src-shared/schemas/config.ts';
import type { Db } from '../store/db.ts';
import { balances, charge, formatUsd, OWNER_ACCOUNT_ID } from './billing.ts';
import { RunBill } from './datasets/run-bill.ts';
import { recordHistory, type HistorySource } from './history.ts';
import { MINIMUM_CHARGE_MICRO } from './money.ts';

/**
 * Billing of a run on the owner's own account outside the app's grid (the
 * `svc audit|fix|refine FILE` command): no hold and no per-request cap, but
 * charged batch by batch as it goes (see RunBill: the whole run's token cost
 * rounded up to the cent, at least a cent), with fix and refine history, so
 * running out of credit stops it and nothing runs unpaid.
 */
export class OwnerRunBilling {
  readonly #db: Db;
  readonly #runId: string;
  readonly #operation: Operation;
  readonly #label: string;
  readonly #source: HistorySource;
  readonly #bill = new RunBill();
  #batches = 0;
  #samples = 0;

  constructor(
    db: Db,
    run: { id: string; operation: Operation; label: string; source: HistorySource },
  ) {
    this.#db = db;
    this.#runId = run.id;
    this.#operation = run.operation;
    this.#label = run.label;
    this.#source = run.source;
  }

  /** Refuses to start without a cent of available credit. */
  assertCanStart(): void {
    const { available_micro } = balances(this.#db, OWNER_ACCOUNT_ID);
    if (available_micro < MINIMUM_CHARGE_MICRO) {
      throw new AppError(
        'insufficient_quota',
        `insufficient credit: ${formatUsd(Math.max(0, available_micro))} is available; ` +
          'add credit with `svc credits add USD`',
      );
    }
  }

  /**
   * Pays for a finished batch (and records its history) in one immediate
   * transaction; throws `insufficient_quota`, naming how far the run got, when
   * the credit cannot cover it.
   */
  payBatch(batch: {
    tokenCostMicro: number;
    usage: unknown;
    input: readonly unknown[];
    output: readonly unknown[];
  }): void {
    const owed = this.#bill.owed(batch.tokenCostMicro);
    const number = this.#batches + 1;
    this.#db
      .transaction(() => {
        if (owed > 0) {
          try {
            charge(this.#db, {
              accountId: OWNER_ACCOUNT_ID,
              chargeMicro: owed,
              requestId: this.#runId,
              memo: `${this.#source} ${this.#operation} ${this.#label}, batch ${number} (${batch.input.length} samples)`,
              meta: {
                operation: this.#operation,
                usage: batch.usage,
                token_cost_micro: batch.tokenCostMicro,
              },
            });
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'insufficient_quota') throw error;
            const { available_micro } = balances(this.#db, OWNER_ACCOUNT_ID);
            throw new AppError(
              'insufficient_quota',
              `credit ran out after ${this.#samples.toLocaleString('en-US')} samples: the next ` +
                `batch costs ${formatUsd(owed)} and ${formatUsd(Math.max(0, available_micro))} ` +
                `is available, so its results were not written. The samples written were ` +
                `charged ${formatUsd(this.#bill.chargedMicro)}; add credit with ` +
                '`svc credits add USD` and run the rest.',
              { cause: error },
            );
          }
        }
        if (this.#operation !== 'audit') {
          recordHistory(this.#db, {
            requestId: this.#runId,
            operation: this.#operation,
            source: this.#source,
            input: batch.input,
            output: batch.output,
            costMicro: owed,
          });
        }
      })
      .immediate();
    this.#bill.paid(batch.tokenCostMicro, owed);
    this.#batches = number;
    this.#samples += batch.input.length;
  }

  get chargedMicro(): number {
    return this.#bill.chargedMicro;
  }
}
