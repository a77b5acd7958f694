import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../../src-shared/owner/runs.ts';
import { newerRun } from './run-merge.ts';

const run = (over: Partial<RunStatus>): RunStatus => ({
  id: 'run_1',
  dataset_id: 'ds_1',
  operation: 'audit',
  status: 'running',
  total: 30,
  done: 0,
  rate_per_s: 0,
  cost_usd: 0,
  error: null,
  started_at: '2026-11-22T00:00:00.000Z',
  finished_at: null,
  ...over,
});

describe('newerRun', () => {
  it('keeps a finished run when the start answer arrives after its final event', () => {
    const done = run({ status: 'done', done: 30 });
    expect(newerRun(done, run({}))).toBe(done);
  });

  it('never moves a running count backwards', () => {
    const ahead = run({ done: 20 });
    expect(newerRun(ahead, run({ done: 10 }))).toBe(ahead);
    expect(newerRun(run({ done: 10 }), ahead)).toBe(ahead);
  });

  it('takes the end of a run, and any report of another run', () => {
    const cancelled = run({ status: 'cancelled', done: 5 });
    expect(newerRun(run({ done: 10 }), cancelled)).toBe(cancelled);
    const other = run({ id: 'run_2' });
    expect(newerRun(run({ status: 'done' }), other)).toBe(other);
    expect(newerRun(run({}), null)).toBeNull();
  });
});
