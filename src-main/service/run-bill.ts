import { chargeMicro } from './money.ts';

/**
 * What an app run is billed, batch by batch. A run is billed like one request:
 * its exact token cost (all batches together) rounded up to the cent, at least
 * one cent. It is charged as it goes, so credit running out stops it: after
 * each batch, the cents that became owed (often none: the rounding of earlier
 * batches may already cover a small one). Rounding per batch instead would
 * overcharge a long run by up to a cent per batch.
 */
export class RunBill {
  #tokenCostMicro = 0;
  #chargedMicro = 0;

  /** Adds a finished batch's token cost; returns what to charge for it now (may be 0). */
  owed(batchTokenCostMicro: number): number {
    const total = this.#tokenCostMicro + batchTokenCostMicro;
    return chargeMicro(total) - this.#chargedMicro;
  }

  /** Records the batch as paid (call once its charge is committed). */
  paid(batchTokenCostMicro: number, chargedMicro: number): void {
    this.#tokenCostMicro += batchTokenCostMicro;
    this.#chargedMicro += chargedMicro;
  }

  get chargedMicro(): number {
    return this.#chargedMicro;
  }

  get tokenCostMicro(): number {
    return this.#tokenCostMicro;
  }
}
