import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The steps of one request that follow each other on the main thread (its
 * body decoded, parsed, validated; its result checked, serialized, charged,
 * written) each take a few milliseconds for a small request and tens for a
 * large one: 100 texts of 10 KB sent to `/audit` held the server 30-43 ms in
 * one turn (profiled), while a ping waited. A clock between two steps lets
 * the event loop turn once the steps so far have held the thread a budget's
 * worth, so a large request is answered in several turns and a small one,
 * under budget, in one as before: no turn is spent where none is needed.
 */
export const TURN_BUDGET_MS = 5;

export class TurnClock {
  #since = performance.now();
  readonly #budgetMs: number;

  constructor(budgetMs = TURN_BUDGET_MS) {
    this.#budgetMs = budgetMs;
  }

  /**
   * Lets the event loop turn when the thread has run its budget or more
   * since the clock started or last let it turn. Start it where the steps it
   * splits begin, after the last await of other work: what the thread did for
   * other requests while this one waited would count as this one's.
   */
  async breathe(): Promise<void> {
    if (performance.now() - this.#since < this.#budgetMs) return;
    await nextTurn();
    this.#since = performance.now();
  }
}
