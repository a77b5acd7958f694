/**
 * Batches sent to the engine ahead of the one being written, finished in the
 * order they were sent. A row-at-a-time pass (CSV, Parquet, a shard, write
 * back) read a batch, waited for the engine and wrote it before it read the
 * next one: the thread that reads and the workers that compute took turns,
 * each idle half the time. With `depth` batches in flight the reading goes on
 * while the engine works; what a batch does once it is back (its dataset
 * verdicts, its usage recorded, its rows written) still happens batch by
 * batch in the file's order, so the output and the ledger are as before.
 */
export class OrderedBatches<T> {
  readonly #depth: number;
  readonly #queue: { work: Promise<T>; finish: (value: T) => Promise<void> }[] = [];

  /** `depth`: how many batches may be in flight beyond the one being finished (0: none). */
  constructor(depth: number) {
    this.#depth = depth;
  }

  /**
   * Takes a batch's work, then finishes the oldest batches until no more than
   * `depth` are left in flight. A failure is thrown by the call that finishes
   * the failed batch, in the file's order; the batches sent after it are never
   * finished (nothing of theirs is written or recorded).
   */
  async send(work: Promise<T>, finish: (value: T) => Promise<void>): Promise<void> {
    // Its failure is thrown when its turn comes (below); until then it must not
    // count as an unhandled rejection.
    work.catch(() => undefined);
    this.#queue.push({ work, finish });
    while (this.#queue.length > this.#depth) await this.#finishOldest();
  }

  /** Finishes every batch still in flight, in order. */
  async drain(): Promise<void> {
    while (this.#queue.length > 0) await this.#finishOldest();
  }

  async #finishOldest(): Promise<void> {
    const oldest = this.#queue.shift();
    if (oldest) await oldest.finish(await oldest.work);
  }
}
