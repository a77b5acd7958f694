import { readFileSync } from 'node:fs';

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
