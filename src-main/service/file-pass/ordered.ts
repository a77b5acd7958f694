/**
 * Runs `start` on each item of `source` with up to `window` running at once,
 * and hands the results to `consume` in the source's order: workers stay
 * busy while the calling thread takes each result as soon as its turn comes.
 * The first failure stops it (what is running is left to the caller's signal).
 */
export async function orderedMap<T, R>(
  source: AsyncIterable<T> | Iterable<T>,
  window: number,
  start: (item: T) => Promise<R>,
  consume: (result: R, item: T) => void | Promise<void>,
): Promise<void> {
  const running: { item: T; result: Promise<R> }[] = [];
  const settle = async (): Promise<void> => {
    const next = running.shift() as { item: T; result: Promise<R> };
    await consume(await next.result, next.item);
  };
  try {
    for await (const item of source) {
      const result = start(item);
      // Failures are taken in order by settle; meanwhile none goes unhandled.
      result.catch(() => undefined);
      running.push({ item, result });
      if (running.length >= window) await settle();
    }
    while (running.length > 0) await settle();
  } finally {
    running.length = 0;
  }
}
