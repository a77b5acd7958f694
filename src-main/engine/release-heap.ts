import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives a worker thread's heap back to the system on that thread, just
 * before it ends.
 *
 * Why: when a worker's isolate is torn down, V8 keeps its pages in the
 * process's page pool, and about 8 s later the main thread's isolate frees
 * them (`ReleasePooledChunksTask`: one `munmap` per page, in one task). After
 * a 1M-row scan that task held the server's main thread ~100 ms in the middle
 * of the next run (perf, stop 39); in a synthetic test, three ended workers of
 * ~300 MB each held it 50-100 ms, 8 s after they ended. A collection that
 * reduces memory ("last resort": V8's `CollectAllAvailableGarbage`) frees the
 * pooled pages at once, on the thread that runs it: run by the worker before
 * it ends, the main thread has nothing left to free (the same test: no
 * `ReleaseUpTo` on the main thread, worst wait 16 ms; ~0.3 s of the worker's
 * own CPU for a 300 MB heap).
 *
 * Node offers no call for it; V8's `gc` function, exposed to a new context
 * by the flag (set, read, unset), takes the kind of collection. Setting a
 * flag after V8 started is allowed where it runs: Node starts V8 with its
 * flags unfrozen, and so does Electron's Node (it patches Chromium's freezing
 * off for Node's sake); a V8 that froze them would abort here, not throw.
 * Failing to get the function otherwise only leaves the pages to V8.
 */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let collect: Collect | undefined;

/**
 * The flag is the process's: workers that end together (a scan's) set and
 * unset it side by side, and one may unset it between another's set and
 * read. So a miss is tried again, and never remembered.
 */
const ATTEMPTS = 5;

function collector(): Collect | undefined {
  if (collect) return collect;
  // Run with --expose-gc already (a test, a profile): the flag stays as it was.
  const exposed: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return (collect = exposed as Collect);
  for (let attempt = 0; attempt < ATTEMPTS && !collect; attempt++) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      if (typeof gc === 'function') collect = gc as Collect;
    } catch {
      // Tried again; in the end the pages are left to V8.
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  return collect;
}

/**
 * How long the thread stays after the collection. Workers that ended right
 * after it, four at a time, now and then never ended: the message before
 * came, their exit never did (1 round in 10-20 of four workers, V8's `gc`
 * alone reproduces it, a collection that is not last-resort does not).
 * Staying this long after it, 80 rounds ended every worker. Why the
 * isolate's teardown hangs was not found (a task the collection leaves
 * behind is the guess); this is a mitigation.
 */
export const SETTLE_MS = 100;

/**
 * Collects everything collectable and frees the heap's pooled pages on this
 * thread; the thread then stays SETTLE_MS before it can end.
 */
export function releaseHeap(): void {
  const collect = collector();
  if (!collect) return;
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  setTimeout(() => undefined, SETTLE_MS);
}
