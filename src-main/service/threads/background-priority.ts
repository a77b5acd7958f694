import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/**
 * Work that may take its time (a dataset's scan, its search index, the WAL's
 * checkpoints, the engine's batches) runs on threads whose scheduling
 * priority is lowered, so that on a machine with fewer cores than busy
 * threads the threads a person waits on (the server's main thread answering
 * requests, the grid's queries) get a core as soon as they want one. Alone on
 * the machine, a lowered thread runs as fast as before: a priority only
 * decides who goes first when threads compete.
 *
 * Linux only: there a thread has a nice value of its own, and setpriority()
 * given a thread id changes that thread alone. Node names no thread ids, but
 * `/proc/thread-self` is the calling thread's entry (`<pid>/task/<tid>`).
 * Elsewhere the same call would lower the whole process, so it is not made.
 * Lowering needs no privilege; failing to (a sandbox without /proc) changes
 * nothing but the order threads run in, so it is reported once, not thrown.
 */
export const BACKGROUND_NICE = constants.priority.PRIORITY_BELOW_NORMAL;

let warned = false;

/** Lowers the calling thread's priority; returns the thread id lowered, or undefined. */
export function lowerThisThread(
  platform: NodeJS.Platform = process.platform,
  nice: number = BACKGROUND_NICE,
): number | undefined {
  if (!lowersThreads(platform)) return undefined;
  try {
    const tid = Number(/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1]);
    if (!Number.isInteger(tid) || tid <= 0) return undefined;
    lower(tid, nice);
    return tid;
  } catch (error) {
    warnOnce(error);
    return undefined;
  }
}

/** Whether threads are lowered here: on Linux, unless SVC_BACKGROUND_PRIORITY=normal. */
const lowersThreads = (platform: NodeJS.Platform): boolean =>
  platform === 'linux' && process.env.SVC_BACKGROUND_PRIORITY !== 'normal';

/** Lowers thread `tid` to `nice`, never raising it: a process started with `nice` stays that nice. */
function lower(tid: number, nice: number): void {
  if (getPriority(tid) < nice) setPriority(tid, nice);
}

function warnOnce(error: unknown): void {
  if (warned) return;
  warned = true;
  console.error(`background threads keep their priority: ${(error as Error).message}`);
}

/**
 * Lowers V8's helper threads of this process (Node names them `V8Worker`):
 * every isolate's concurrent garbage collection and compilation runs on them,
 * the engine's and the scan's busy workers' most of all, and at the default
 * priority they took the cores the server's main thread was waiting for (a
 * request to a 1M-row server during a refine waited 23.7 ms for a CPU while
 * they ran 23.7 ms). The cost: a parallel phase of the main thread's own
 * collections joins helper tasks, and may wait for one that a busy worker
 * now preempts; measured through a 1M-row dataset's life, the worst waits
 * fell (52.3 and 35.7 ms before, 27.7 and 22.2 ms after) and no step
 * slowed. Linux only, as `lowerThisThread`; Electron's
 * helper threads have other names and keep their priority. Returns the
 * thread ids lowered.
 */
export function lowerHelperThreads(
  platform: NodeJS.Platform = process.platform,
  nice: number = BACKGROUND_NICE,
): number[] {
  if (!lowersThreads(platform)) return [];
  const lowered: number[] = [];
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch (error) {
    warnOnce(error);
    return lowered;
  }
  for (const entry of tids) {
    const tid = Number(entry);
    try {
      if (readFileSync(`/proc/self/task/${entry}/comm`, 'utf8').trim() !== 'V8Worker') continue;
      lower(tid, nice);
      lowered.push(tid);
    } catch (error) {
      // A thread that ended since the listing is no helper to lower; the others still are.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ESRCH') warnOnce(error);
    }
  }
  return lowered;
}
