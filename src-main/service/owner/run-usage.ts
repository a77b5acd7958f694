import type { Operation } from '../../../src-shared/schemas/config.ts';
import type { EngineModel } from '../../../src-shared/models.ts';
import type { ModelUsage } from '../../engine/usage.ts';
import type { Db } from '../../store/db.ts';
import { unsynced } from '../../store/commit.ts';
import { insertUsage } from '../../store/owner-usage.ts';
import { recordHistory, type HistorySource, type JsonText } from '../runs/history.ts';
import { microOfNano, tokenCostNano } from '../billing/money.ts';
import type { Settings } from '../../../src-shared/schemas/settings.ts';

export interface OwnerRun {
  id: string;
  operation: Operation;
  /** What the usage line names after the operation (a file, a dataset). */
  label: string;
  source: Extract<HistorySource, 'app' | 'cli'>;
}

/**
 * The owner's own runs (the app's, and `svc audit|fix|refine FILE`) spend no
 * credit and are never refused for it: each batch records its usage (tokens
 * per model and what they would cost at the rates in force) and, for fix and
 * refine, its history, in one immediate transaction with what the caller
 * keeps of the batch. Credit, holds and charges belong to API keys.
 *
 * A batch commits without an fsync (store/commit.ts, `unsynced`): it moves
 * no money, and an fsync per batch held the main thread up to 0.6 s on a
 * busy disk (a refine of a million rows). A power cut may drop the last
 * batches, and only them (the WAL keeps a prefix of the commits); the run's
 * end is an fsync'd commit that makes every batch before it durable.
 *
 * Each line's cost is what it adds to its model's exact cost in the run
 * (nano-USD), both rounded up to the micro-USD: a model's lines add up to its
 * usage in the run rounded once, however the run was cut into batches (500
 * samples at a time or 5,000, one worker or many). Rounding each line on its
 * own made a run's recorded cost depend on that, up to a micro-USD a line.
 */
export class OwnerRunUsage {
  readonly #db: Db;
  readonly #run: OwnerRun;
  #costMicro = 0;
  /** Each model's exact cost in the lines so far. */
  readonly #nano = new Map<EngineModel, bigint>();

  constructor(db: Db, run: OwnerRun) {
    this.#db = db;
    this.#run = run;
  }

  recordBatch(
    batch: {
      usage: Partial<Record<EngineModel, ModelUsage>>;
      rates: Settings['rates'];
      /** The batch's samples in and out (their JSON text, made elsewhere, as JsonText). */
      input: readonly unknown[] | JsonText;
      output: readonly unknown[] | JsonText;
      /** How many samples; by default the length of `input`. */
      samples?: number;
    },
    keep?: (usage: { costMicro: number }) => void,
  ): void {
    const { id, operation, source, label } = this.#run;
    let batchCost = 0;
    const nano = new Map(this.#nano);
    unsynced(this.#db, () => {
      for (const [model, used] of Object.entries(batch.usage) as [EngineModel, ModelUsage][]) {
        const before = nano.get(model) ?? 0n;
        const after = before + tokenCostNano({ [model]: used }, batch.rates);
        nano.set(model, after);
        const cost = microOfNano(after) - microOfNano(before);
        batchCost += cost;
        insertUsage(this.#db, {
          run_id: id,
          source,
          operation,
          label,
          model,
          samples: batch.samples ?? (Array.isArray(batch.input) ? batch.input.length : 0),
          input_tokens: used.input_tokens,
          output_tokens: used.output_tokens,
          passes: used.passes,
          cost_micro: cost,
        });
      }
      if (operation !== 'audit') {
        recordHistory(this.#db, {
          requestId: id,
          operation,
          source,
          input: batch.input,
          output: batch.output,
          ...(batch.samples !== undefined && { samples: batch.samples }),
          costMicro: 0,
        });
      }
      keep?.({ costMicro: this.#costMicro + batchCost });
    });
    // Only once its lines are stored: a batch that failed to record adds nothing.
    this.#costMicro += batchCost;
    for (const [model, exact] of nano) this.#nano.set(model, exact);
  }

  /** What the run's usage so far would cost at the rates (never charged). */
  get costMicro(): number {
    return this.#costMicro;
  }
}
