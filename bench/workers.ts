import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Sample } from '../src-shared/schemas/sample.ts';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import {
  commonsenseQa,
  ftfyCases,
  gsm8k,
  hellaswag,
  oasst,
  truthfulQa,
} from '../src-main/engine/testing/real-data.ts';
import {
  closeEnginePool,
  configureEngineWorkers,
  MIN_POOLED_SAMPLES,
  runPooled,
} from '../src-main/service/engine-pool/pooled.ts';
import { chargeMicro, tokenCostMicro } from '../src-main/service/money.ts';
import {
  runOperation,
  runOperationInThread,
  type OperationResult,
} from '../src-main/service/operation.ts';
import { DEFAULT_SETTINGS } from '../src-shared/schemas/settings.ts';
import { formatRow } from './stats.ts';

/**
 * The engine pool: an audit of `count` real samples (every task type of the
 * shipped datasets, interleaved, each copy made distinct) in batches of
 * 1,000 through runOperation, as the CLI and the app send them, with one
 * worker thread, then with one per core, in the same run; and in the main
 * thread for reference. Every mode must produce the same results, usage and
 * charge (a digest of each is compared). The event loop's p99 delay shows
 * whether the main thread stays free to answer other requests meanwhile
 * (in the main thread the engine yields every ~8 ms; with workers the main
 * thread only hands out slices and puts results together).
 */

const BATCH = 1000;

function corpus(): Sample[] {
  const corpora: Sample[][] = [
    gsm8k(),
    hellaswag(),
    oasst(),
    truthfulQa(),
    commonsenseQa(),
    [
      ...oasst().flatMap((c) =>
        c.messages.map((m) => ({ task_type: 'text' as const, text: m.content })),
      ),
      ...ftfyCases().wild.map((c) => ({ task_type: 'text' as const, text: c.original })),
    ],
  ];
  const longest = Math.max(...corpora.map((c) => c.length));
  const out: Sample[] = [];
  for (let i = 0; i < longest; i++) {
    for (const c of corpora) if (i < c.length) out.push(c[i] as Sample);
  }
  return out;
}

/** `count` samples from the corpus, each copy tagged so that no cache can flatter the figures. */
function replicate(base: Sample[], count: number): Sample[] {
  const out: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const sample = structuredClone(base[i % base.length] as Sample);
    const tag = ` (copy ${i})`;
    switch (sample.task_type) {
      case 'text':
        sample.text += tag;
        break;
      case 'multiple_choice':
        sample.context += tag;
        break;
      case 'question_answer':
        sample.question += tag;
        break;
      case 'conversation': {
        const first = sample.messages[0];
        if (first) first.content += tag;
        break;
      }
    }
    out.push(sample);
  }
  return out;
}

interface Outcome {
  seconds: number;
  digest: string;
  usage: string;
  charge: number;
  loopP99Ms: number;
}

async function audit(samples: Sample[], inThread: boolean): Promise<Outcome> {
  const results: OperationResult[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const started = performance.now();
  for (let i = 0; i < samples.length; i += BATCH) {
    const request = {
      operation: 'audit' as const,
      samples: samples.slice(i, i + BATCH),
      config: { votes: 1 },
    };
    const run = inThread ? runOperationInThread : runOperation;
    results.push(await run(request, { backend: builtinBackend }));
  }
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  // Digested after the clock stops, so that the check costs no mode anything.
  const hash = createHash('sha256');
  const totals = { input_tokens: 0, output_tokens: 0, passes: 0 };
  let charge = 0;
  for (const result of results) {
    hash.update(JSON.stringify(result.data)).update(JSON.stringify(result.counts));
    const byModel = result.usage.byModel();
    for (const usage of Object.values(byModel)) {
      totals.input_tokens += usage.input_tokens;
      totals.output_tokens += usage.output_tokens;
      totals.passes += usage.passes;
    }
    // Charged per batch, as the CLI and the app record it.
    charge += chargeMicro(tokenCostMicro(byModel, DEFAULT_SETTINGS.rates));
  }
  return {
    seconds,
    digest: hash.digest('hex').slice(0, 12),
    usage: JSON.stringify(totals),
    charge,
    loopP99Ms: loop.percentile(99) / 1e6,
  };
}

/**
 * Where the pool starts to pay: a batch of n samples in the calling thread
 * vs on the (warm) pool, alternately, median of the repeats. Below
 * MIN_POOLED_SAMPLES runOperation keeps a batch in the calling thread.
 */
async function smallBatches(samples: Sample[], cores: number): Promise<void> {
  configureEngineWorkers(cores);
  console.log(
    `\nsmall batches: ms per batch, calling thread vs the pool (runOperation pools from ` +
      `${MIN_POOLED_SAMPLES} samples)`,
  );
  const widths = [8, 14, 12, 14];
  console.log(formatRow(['samples', 'in thread ms', 'pooled ms', 'x in thread'], widths));
  const median = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  let offset = 0;
  for (const n of [1, 4, 16, 64, 256]) {
    const here: number[] = [];
    const pooled: number[] = [];
    for (let rep = 0; rep < Math.max(9, Math.ceil(2000 / n)); rep++) {
      const request = {
        operation: 'audit' as const,
        samples: samples.slice(offset, offset + n),
        config: { votes: 1 },
      };
      offset = (offset + n) % (samples.length - 256);
      let started = performance.now();
      await runOperationInThread(request, { backend: builtinBackend });
      here.push(performance.now() - started);
      started = performance.now();
      await runPooled(request, { backend: builtinBackend }, runOperationInThread);
      pooled.push(performance.now() - started);
    }
    const [a, b] = [median(here), median(pooled)];
    console.log(formatRow([n, a.toFixed(2), b.toFixed(2), (a / b).toFixed(2)], widths));
  }
}

export async function benchWorkers(count = 100_000): Promise<void> {
  // The modes set the pool's size themselves: the environment's override would flatten them.
  delete process.env.SVC_ENGINE_WORKERS;
  const cores = availableParallelism();
  console.log(
    `\n## engine pool: audit of ${count.toLocaleString('en-US')} real samples in batches of ` +
      `${BATCH.toLocaleString('en-US')}, 1 worker vs ${cores} (one per core)`,
  );
  const samples = replicate(corpus(), count);
  const warmup = samples.slice(0, 4 * BATCH);
  const modes: { name: string; workers: number | 'main' }[] = [
    { name: 'main thread', workers: 'main' },
    { name: '1 worker', workers: 1 },
    { name: `${cores} workers`, workers: cores },
  ];
  const outcomes = new Map<string, Outcome>();
  for (const mode of modes) {
    const inThread = mode.workers === 'main';
    if (!inThread) configureEngineWorkers(mode.workers as number);
    // Workers started and warmed before the clock starts (they stay between batches).
    await audit(warmup, inThread);
    outcomes.set(mode.name, await audit(samples, inThread));
  }

  const one = outcomes.get('1 worker') as Outcome;
  const widths = [14, 10, 12, 12, 14, 14];
  console.log(
    formatRow(['mode', 'seconds', 'samples/s', 'x 1 worker', 'loop p99 ms', 'results'], widths),
  );
  for (const mode of modes) {
    const o = outcomes.get(mode.name) as Outcome;
    console.log(
      formatRow(
        [
          mode.name,
          o.seconds.toFixed(1),
          count / o.seconds,
          (one.seconds / o.seconds).toFixed(2),
          o.loopP99Ms.toFixed(1),
          o.digest,
        ],
        widths,
      ),
    );
  }
  const all = [...outcomes.values()];
  const identical = all.every(
    (o) => o.digest === one.digest && o.usage === one.usage && o.charge === one.charge,
  );
  console.log(
    `results, usage (${one.usage}) and charge (${one.charge} micro-USD): ` +
      (identical ? 'identical in every mode' : 'DIFFER between modes'),
  );
  if (!identical) process.exitCode = 1;
  await smallBatches(samples, cores);
  await closeEnginePool();
  configureEngineWorkers(null);
}

// `node bench/workers.ts [COUNT]` runs this part alone.
if (import.meta.main) await benchWorkers(Number(process.argv[2] ?? 100_000));
