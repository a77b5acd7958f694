import { readdirSync, readFileSync } from 'node:fs';

/**
 * How long a thread has run on a CPU, in ms (Linux: the first field of
 * `/proc/PID/task/TID/schedstat`, in ns; a process's main thread has the
 * process's id). Undefined where there is no such file.
 */
export function threadCpuMs(pid: number, tid = pid): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
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
  const before = new Map<string, number>();
  const last = new Map<string, { name: string; ms: number }>();
  const read = (into: 'before' | 'last'): void => {
    let tids: string[];
    try {
      tids = readdirSync('/proc/self/task');
    } catch {
      return;
    }
    for (const tid of tids) {
      const ms = threadCpuMs(process.pid, Number(tid));
      if (ms === undefined) continue;
      if (into === 'before') {
        before.set(tid, ms);
        continue;
      }
      let name: string;
      try {
        name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      } catch {
        // Ended between the listing and the read: its last reading stands.
        continue;
      }
      last.set(tid, { name, ms: ms - (before.get(tid) ?? 0) });
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
