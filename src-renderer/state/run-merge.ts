import type { RunStatus } from '../../src-shared/owner/runs.ts';

/**
 * Which of two reports of a run to show. Run events are pushed while the
 * request that started (or cancelled) the run is still answering, so the
 * answer can arrive after the run's final event: a stale report of the same
 * run must not put a finished run back to `running` or its count backwards.
 */
export function newerRun(current: RunStatus | null, next: RunStatus | null): RunStatus | null {
  if (!current || !next || current.id !== next.id) return next;
  if (current.status !== 'running' && next.status === 'running') return current;
  if (current.status === 'running' && next.status === 'running' && next.done < current.done) {
    return current;
  }
  return next;
}
