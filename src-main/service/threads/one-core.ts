import { availableParallelism } from 'node:os';

/**
 * Whether this process may run on one core only (a one-core machine, or a
 * cpuset or `taskset` of one CPU: Node's `availableParallelism` reads the
 * affinity). A batch command's helper threads there cannot run beside the
 * thread that orders their work: they only take turns with it, and each
 * still costs its start (its modules, ~0.1-0.3 s of CPU) and the copies of
 * what it is sent and sends back. `svc merge` of 100,000 rows on one core:
 * 1.38-1.44 s with its worker and line cutter, 1.10-1.28 s with neither.
 * The server keeps its threads on one core too: there they keep its own
 * thread free to answer, which is worth more than the CPU they cost.
 */
export function oneCore(): boolean {
  return availableParallelism() === 1;
}
