import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShapeId } from '../src-shared/owner/datasets.ts';
import { createHarness, dataset } from '../src-main/service/datasets/testing/harness.ts';
import { sharedFile } from '../src-main/engine/testing/shared-data.ts';
import { formatRow } from './stats.ts';

/**
 * How close the app's run estimate comes to what a run actually uses, on
 * each real dataset shipped with the app (and those of `../shared/datasets`
 * when present), as is and repeated 20 times (a run of several seconds): the
 * expected usage (a trial on a few percent of the rows, scaled by size) and
 * the upper bound, beside the actual run's usage, for a refine (the
 * operation whose fix passes are hardest to guess), and how long the
 * estimate takes against the run itself. A run of under a second is not
 * estimated further ("short"): it has no bound.
 */
const FILES: [string, ShapeId][] = [
  ['gsm8k_test_first300.jsonl', 'gsm8k'],
  ['commonsenseqa_validation_first200.jsonl', 'commonsenseqa'],
  ['hellaswag_val_sample200.jsonl', 'hellaswag'],
  ['truthfulqa_mc_task_first200.jsonl', 'truthfulqa_mc'],
  ['oasst_en_100_trees.jsonl', 'oasst'],
];
/** Files of `../shared/datasets` only (not in the repository), measured when present. */
const SHARED_FILES: [string, ShapeId][] = [
  ['alpaca_original_300.jsonl', 'alpaca'],
  ['alpaca_cleaned_300.jsonl', 'alpaca'],
];
/** How many times the larger variant repeats a file's rows. */
const REPEAT = 20;

export async function benchEstimate(): Promise<void> {
  console.log('\n## run estimates against the actual usage (refine, builtin engine)');
  const widths = [44, 11, 10, 10, 12, 13, 12, 9, 9];
  console.log(
    formatRow(
      [
        'dataset',
        'expected $',
        'bound $',
        'actual $',
        'actual/exp.',
        'bound/actual',
        'estimate ms',
        'run ms',
        'est./run',
      ],
      widths,
    ),
  );
  const files: [string, string, ShapeId][] = [
    ...FILES.map(([file, shape]): [string, string, ShapeId] => [file, dataset(file), shape]),
    ...SHARED_FILES.flatMap(([file, shape]): [string, string, ShapeId][] => {
      const shared = sharedFile(`datasets/${file}`);
      return shared.present ? [[file, shared.path, shape]] : [];
    }),
  ];
  for (const repeat of [1, REPEAT]) {
    for (const [file, source, shape] of files) {
      const h = createHarness();
      let path = source;
      if (repeat > 1) {
        const text = readFileSync(source, 'utf8').trimEnd();
        path = join(h.dir, file);
        writeFileSync(path, `${Array.from({ length: repeat }, () => text).join('\n')}\n`);
      }
      const ds = await h.importFile(path, shape);
      await h.scanned(ds.id);
      const request = {
        dataset_id: ds.id,
        operation: 'refine' as const,
        scope: { kind: 'all' as const },
      };
      const asked = performance.now();
      const estimate = await h.call('estimateRun', request);
      const estimateMs = performance.now() - asked;
      const started = performance.now();
      const run = await h.finished(await h.call('startRun', request));
      const runMs = performance.now() - started;
      await h.scanned(ds.id);
      const bound = estimate.max_cost_usd;
      console.log(
        formatRow(
          [
            repeat > 1 ? `${file} x${repeat}` : file,
            estimate.expected_cost_usd.toFixed(4),
            bound === null ? 'short' : bound.toFixed(4),
            run.cost_usd.toFixed(4),
            (run.cost_usd / Math.max(1e-9, estimate.expected_cost_usd)).toFixed(2),
            bound === null ? '-' : (bound / Math.max(1e-9, run.cost_usd)).toFixed(2),
            estimateMs.toFixed(0),
            runMs.toFixed(0),
            (estimateMs / runMs).toFixed(2),
          ],
          widths,
        ),
      );
    }
  }
}
