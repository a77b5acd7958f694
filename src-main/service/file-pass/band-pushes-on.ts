import type { BandPushes } from '../../engine/dataset/duplicates.ts';
import type { BandPairsResult, BandPairsTask } from './task-types.ts';

/**
 * What runs a band's task: the engine's workers in a file pass
 * (parallel-pass.ts `TaskRunner`), a dataset scan's slice workers
 * (dataset-checks/scan-slices.ts).
 */
export interface BandRunner {
  /** Tasks in flight at once. */
  readonly window: number;
  run<R>(task: BandPairsTask): Promise<R>;
}

/**
 * The LSH bands' candidate pairs made by the runner's threads,
 * a few bands in flight at once, yielded in band order. The representatives
 * and each band's column go in shared memory: sent to every band's task,
 * they are not copied. A column's memory serves the next band once its task
 * is answered: a new one per band (25 of 400 KB at 100k rows), and a copy of
 * each, made this thread's GC run a full collection during every finish.
 */
export function bandPushesOn(runner: BandRunner): BandPushes {
  return async function* onWorkers(bands, columnOf, reps, n) {
    const sharedReps = shared(reps);
    const free: Uint32Array[] = [];
    const inFlight: { task: Promise<BandPairsResult>; column: Uint32Array }[] = [];
    let next = 0;
    const launch = (): void => {
      const column = columnOf(
        next++,
        free.pop() ?? new Uint32Array(new SharedArrayBuffer(reps.byteLength)),
      );
      const task = runner.run<BandPairsResult>({ kind: 'band-pairs', reps: sharedReps, column, n });
      // Awaited in turn below; a caller that stops early leaves the rest to settle unread.
      task.catch(() => undefined);
      inFlight.push({ task, column });
    };
    while (next < bands && inFlight.length < runner.window) launch();
    for (let band = inFlight.shift(); band; band = inFlight.shift()) {
      const { pushes } = await band.task;
      free.push(band.column);
      if (next < bands) launch();
      yield pushes;
    }
  };
}

/** A copy of `values` in memory every thread shares. */
function shared(values: Uint32Array): Uint32Array {
  const out = new Uint32Array(new SharedArrayBuffer(values.byteLength));
  out.set(values);
  return out;
}
