import { setImmediate as nextTick } from 'node:timers/promises';
/**
 * Work over many rows on the main thread (a bulk decision, a dataset's
 * delete) in transactions sized to hold it about TURN_MS each, with the
 * event loop let turn between two: the server answers meanwhile. A fixed
 * number of rows per transaction cannot be right everywhere: the same
 * update costs 2-15 µs a row by how wide the rows are and how large the
 * dataset's indexes have grown (a delete of 20,000 rows at a time held the
 * server 260-500 ms at 50,000 rows). So each transaction's size follows the
 * time the last one took.
 */

/** How long one transaction may hold the main thread (the goal for any hold is 20 ms). */
export const TURN_MS = 5;

export interface TurnSizes {
  /** Rows in the first transaction. */
  first: number;
  min: number;
  max: number;
}

const DEFAULT_SIZES: TurnSizes = { first: 64, min: 8, max: 20_000 };

/**
 * The next transaction's size from the last one's (`size` rows in `tookMs`):
 * scaled towards TURN_MS, at most doubled (a first short one may have been
 * luck: pages already in the cache), halved at least when it was over.
 */
export function nextTurnSize(size: number, tookMs: number, sizes = DEFAULT_SIZES): number {
  const wanted =
    tookMs <= 0 ? size * 2 : Math.floor((size * TURN_MS) / Math.max(tookMs, TURN_MS / 64));
  const bounded = tookMs > TURN_MS ? Math.min(wanted, Math.floor(size / 2)) : wanted;
  return Math.max(sizes.min, Math.min(sizes.max, Math.min(bounded, size * 2)));
}

/**
 * Calls `turn(size)` until it says nothing is left (false), each call one
 * transaction of about `size` rows, the size following the time the last
 * took; the event loop turns between two.
 */
export async function inTurns(
  turn: (size: number) => boolean,
  sizes: TurnSizes = DEFAULT_SIZES,
): Promise<void> {
  let size = sizes.first;
  for (;;) {
    const started = performance.now();
    if (!turn(size)) return;
    size = nextTurnSize(size, performance.now() - started, sizes);
    await nextTick();
  }
}
