import { readdirSync, readFileSync } from 'node:fs';

/**
 * How long a thread has run on a CPU, in ms (Linux: the first field of
 * `/proc/PID/task/TID/schedstat`, in ns; a process's main thread has the
 * process's id). Undefined where there is no such file.
 */
export function threadCpuMs(pid: number, tid = pid): number | undefined {
  return schedstatMs(pid, tid)?.ran;
}

/**
 * How long a thread has run on a CPU and how long it has waited, runnable,
 * for one, in ms (the first two fields of its schedstat). Undefined where
 * there is no such file.
 */
export function schedstatMs(pid: number, tid = pid): { ran: number; queued: number } | undefined {
  try {
    const [ran, queued] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8')
      .split(' ')
      .map((ns) => Number(ns) / 1e6);
    return Number.isFinite(ran) && Number.isFinite(queued)
      ? { ran: ran as number, queued: queued as number }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The CPU time of this process's threads while `run` runs, by thread name
 * (Linux's `comm`: Node names a worker's thread after its `name`, cut to 15
 * characters), summed over threads of the same name. Threads are read every
 * 100 ms and once at the end, so one that ended meanwhile counts up to its
 * last reading. Empty where /proc is not there.
 */
export async function cpuByThreadName<T>(
  run: () => Promise<T>,
): Promise<[T, Map<string, { ms: number; threads: number }>]> {
  const before = new Map<number, number>();
  const last = new Map<number, { name: string; ms: number }>();
  const read = (into: 'before' | 'last'): void => {
    // A thread that ended between two readings keeps its last one.
    for (const [tid, { name, ran }] of threadsRanMs(process.pid)) {
      if (into === 'before') before.set(tid, ran);
      else last.set(tid, { name, ms: ran - (before.get(tid) ?? 0) });
    }
  };
  read('before');
  const timer = setInterval(() => read('last'), 100);
  try {
    const result = await run();
    read('last');
    const byName = new Map<string, { ms: number; threads: number }>();
    for (const { name, ms } of last.values()) {
      const sum = byName.get(name) ?? { ms: 0, threads: 0 };
      byName.set(name, { ms: sum.ms + ms, threads: sum.threads + 1 });
    }
    return [result, byName];
  } finally {
    clearInterval(timer);
  }
}

/** Every thread of process `pid` with its name and how long it has run, ms (Linux; else empty). */
export function threadsRanMs(pid: number): Map<number, { name: string; ran: number }> {
  const out = new Map<number, { name: string; ran: number }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const ran = threadCpuMs(pid, Number(tid));
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // ended meanwhile
    }
    if (ran !== undefined) out.set(Number(tid), { name, ran });
  }
  return out;
}

/** What each thread name ran between two readings of `threadsRanMs`, most first, as text. */
export function ranBetween(
  before: Map<number, { name: string; ran: number }>,
  after: Map<number, { name: string; ran: number }>,
): string {
  const byName = new Map<string, number>();
  for (const [tid, { name, ran }] of after) {
    const delta = ran - (before.get(tid)?.ran ?? 0);
    if (delta > 0.05) byName.set(name, (byName.get(name) ?? 0) + delta);
  }
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
    .join(', ');
}
