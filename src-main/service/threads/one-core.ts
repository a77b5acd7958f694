import { availableParallelism } from 'node:os';

/**
 * Whether this process may use one core only: Node's `availableParallelism`
 * is 1 on a one-core machine, in a cpuset or under `taskset` of one CPU, and
 * in a container whose CPU quota is under two (libuv reads the quota and
 * rounds it down). A batch command's helper threads there cannot run beside
 * the thread that orders their work: they only take turns with it, and each
 * still costs its start (its modules) and the copies of what it is sent and
 * sends back. `svc merge` of 100,000 rows on one core: 1.35-1.38 s with its
 * worker and line cutter, 0.98-1.07 s with neither. The server keeps its
 * threads on one core too: there they keep its own thread free to answer,
 * which is worth more than the CPU they cost.
 */
export function oneCore(): boolean {
  return availableParallelism() === 1;
}
