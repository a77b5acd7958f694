import type { ShapeId } from '../src-shared/owner/datasets.ts';
import { createHarness, dataset } from '../src-main/service/datasets/testing/harness.ts';
import { formatRow } from './stats.ts';

/**
 * How close the app's run estimate comes to what a run actually uses, on
 * each real dataset shipped with the app: the expected usage (a trial run on
 * 200 rows, scaled by tokens) and the upper bound, beside the actual run's
 * usage, for a refine (the operation whose fix passes are hardest to guess).
 */
const FILES: [string, ShapeId][] = [
  ['gsm8k_test_first300.jsonl', 'gsm8k'],
  ['commonsenseqa_validation_first200.jsonl', 'commonsenseqa'],
  ['hellaswag_val_sample200.jsonl', 'hellaswag'],
  ['truthfulqa_mc_task_first200.jsonl', 'truthfulqa_mc'],
  ['oasst_en_100_trees.jsonl', 'oasst'],
];

export async function benchEstimate(): Promise<void> {
  console.log('\n## run estimates against the actual usage (refine, builtin engine)');
  const widths = [42, 12, 12, 12, 14, 14];
  console.log(
    formatRow(
      ['dataset', 'expected $', 'bound $', 'actual $', 'actual/exp.', 'bound/actual'],
      widths,
    ),
  );
  for (const [file, shape] of FILES) {
    const h = createHarness();
    const ds = await h.importFile(dataset(file), shape);
    const request = {
      dataset_id: ds.id,
      operation: 'refine' as const,
      scope: { kind: 'all' as const },
    };
    const estimate = await h.call('estimateRun', request);
    const run = await h.finished(await h.call('startRun', request));
    await h.scanned(ds.id);
    console.log(
      formatRow(
        [
          file,
          estimate.expected_cost_usd.toFixed(4),
          estimate.max_cost_usd.toFixed(4),
          run.cost_usd.toFixed(4),
          (run.cost_usd / Math.max(1e-9, estimate.expected_cost_usd)).toFixed(2),
          (estimate.max_cost_usd / Math.max(1e-9, run.cost_usd)).toFixed(1),
        ],
        widths,
      ),
    );
  }
}
