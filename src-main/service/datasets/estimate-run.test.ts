import { afterAll, describe, expect, it } from 'vitest';
import { RunRequest } from '../../../src-shared/owner/runs.ts';
import { builtinBackend } from '../../engine/builtin/backend.ts';
import type { EngineBackend } from '../../engine/backend.ts';
import { closeEnginePool, configureEngineWorkers, enginePoolSlices } from '../runs/pool/pooled.ts';
import { estimateRun } from './estimate-run.ts';
import { createHarness, dataset, type Harness } from './testing/harness.ts';

/**
 * A run's estimate on real datasets: on the builtin engine a trial on a few
 * percent of the rows whose expected usage comes within 2x of the
 * run's and whose bound is above it by at most 3x; a short run (a small
 * scope, or one the first slices say is short) stops after the trial's
 * first two slices, with no bound; an upstream is not tried at all. Which runs count as short
 * is passed in: nothing here is timed.
 */

const refineAll = (datasetId: string) =>
  RunRequest.parse({ dataset_id: datasetId, operation: 'refine', scope: { kind: 'all' } });

async function actualCost(h: Harness, datasetId: string): Promise<number> {
  const run = await h.finished(
    await h.call('startRun', {
      dataset_id: datasetId,
      operation: 'refine',
      scope: { kind: 'all' },
    }),
  );
  return run.cost_usd;
}

const poolSlices = (): number => [...enginePoolSlices().values()].reduce((a, b) => a + b, 0);

afterAll(async () => {
  configureEngineWorkers(null);
  await closeEnginePool();
});

describe('the run estimate', () => {
  it.each([
    ['gsm8k_test_first300.jsonl', 'gsm8k', 300, 24],
    ['hellaswag_val_sample200.jsonl', 'hellaswag', 200, 24],
    ['oasst_en_100_trees.jsonl', 'oasst', 100, 24],
  ] as const)(
    '%s: a trial of a few rows, its bound at most 3x the run',
    async (file, shape, rows, tried) => {
      const h = createHarness();
      const ds = await h.importFile(dataset(file), shape);
      const estimate = await estimateRun(h.ctx, refineAll(ds.id), builtinBackend, {
        shortRunMs: 0,
        shortRunChars: 0,
      });
      expect(estimate).toMatchObject({ samples: rows, short_run: false, trial_rows: tried });
      const actual = await actualCost(h, ds.id);
      expect(estimate.max_cost_usd).not.toBeNull();
      const bound = estimate.max_cost_usd ?? 0;
      expect(bound).toBeGreaterThanOrEqual(actual);
      expect(bound).toBeLessThanOrEqual(3 * actual);
      expect(actual / estimate.expected_cost_usd).toBeGreaterThan(0.5);
      expect(actual / estimate.expected_cost_usd).toBeLessThan(2);
    },
  );

  it('a run the first slices say is short stops after two and gives no bound', async () => {
    const h = createHarness();
    const ds = await h.importFile(dataset('gsm8k_test_first300.jsonl'), 'gsm8k');
    const estimate = await estimateRun(h.ctx, refineAll(ds.id), builtinBackend, {
      shortRunMs: Number.POSITIVE_INFINITY,
      shortRunChars: 0,
    });
    // 24 trial rows in eight slices of three: the first two decide.
    expect(estimate).toMatchObject({ samples: 300, short_run: true, trial_rows: 6 });
    expect(estimate.max_cost_usd).toBeNull();
    expect(estimate.expected_cost_usd).toBeGreaterThan(0);
  });

  it('a small scope is short by its size, whatever its slices take', async () => {
    const h = createHarness();
    const ds = await h.importFile(dataset('hellaswag_val_sample200.jsonl'), 'hellaswag');
    const estimate = await estimateRun(h.ctx, refineAll(ds.id), builtinBackend, {
      shortRunMs: 0,
    });
    expect(estimate).toMatchObject({ samples: 200, short_run: true, trial_rows: 6 });
    expect(estimate.max_cost_usd).toBeNull();
    // The rough figure of six rows, still in the run's range.
    const actual = await actualCost(h, ds.id);
    expect(actual / estimate.expected_cost_usd).toBeGreaterThan(0.5);
    expect(actual / estimate.expected_cost_usd).toBeLessThan(2);
  });

  it('a scope larger than the size limit is tried in full when its slices are slow', async () => {
    const h = createHarness();
    const ds = await h.importFile(dataset('hellaswag_val_sample200.jsonl'), 'hellaswag');
    const estimate = await estimateRun(h.ctx, refineAll(ds.id), builtinBackend, {
      shortRunMs: 0,
      shortRunChars: 1000,
    });
    expect(estimate).toMatchObject({ short_run: false, trial_rows: 24 });
    expect(estimate.max_cost_usd).not.toBeNull();
  });

  it('the last six slices of a trial run side by side on the engine threads when these are up, in this thread when not', async () => {
    configureEngineWorkers(2);
    await closeEnginePool();
    const h = createHarness();
    const ds = await h.importFile(dataset('hellaswag_val_sample200.jsonl'), 'hellaswag');
    const long = { shortRunMs: 0, shortRunChars: 1000 };
    const cold = poolSlices();
    const first = await estimateRun(h.ctx, refineAll(ds.id), builtinBackend, long);
    // A cold pool is not started by an estimate: it would pay each thread's start.
    expect(poolSlices()).toBe(cold);
    await actualCost(h, ds.id);
    const warm = poolSlices();
    expect(warm).toBeGreaterThan(cold);
    const second = await estimateRun(h.ctx, refineAll(ds.id), builtinBackend, long);
    expect(poolSlices()).toBe(warm + 6);
    // The same figures wherever the slices ran: the engine is deterministic.
    expect(second).toEqual(first);
  });

  it('an upstream is not tried: its every row is counted, and the bound is both figures', async () => {
    const h = createHarness();
    const ds = await h.importFile(
      dataset('commonsenseqa_validation_first200.jsonl'),
      'commonsenseqa',
    );
    let called = 0;
    const upstream: EngineBackend = {
      id: 'upstream',
      audit: (...args) => {
        called++;
        return builtinBackend.audit(...args);
      },
      proposeFix: (...args) => builtinBackend.proposeFix(...args),
    };
    const estimate = await estimateRun(h.ctx, refineAll(ds.id), upstream);
    expect(called).toBe(0);
    expect(estimate).toMatchObject({ samples: 200, short_run: false, trial_rows: 0 });
    expect(estimate.max_cost_usd).toBe(estimate.expected_cost_usd);
    expect(estimate.expected_cost_usd).toBeGreaterThan(0);
  });
});
