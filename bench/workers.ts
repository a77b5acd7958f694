import { createHash, type Hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Sample } from '../src-shared/schemas/sample.ts';
import { builtinBackend } from '../src-main/engine/builtin/backend.ts';
import {
  commonsenseQa,
  gsm8k,
  hellaswag,
  oasst,
  truthfulQa,
} from '../src-main/engine/testing/real-data.ts';
import { EnginePool } from '../src-main/service/runs/pool/pool.ts';
import {
  engineWorkerScript,
  MIN_POOLED_SAMPLES,
  runPooled,
} from '../src-main/service/runs/pool/pooled.ts';
import { chargeMicro, tokenCostMicro } from '../src-main/service/billing/money.ts';
import type { OperationRequest, OperationResult } from '../src-main/service/runs/contract.ts';
import { runOperationInThread } from '../src-main/service/runs/operation.ts';
import { DEFAULT_SETTINGS } from '../src-shared/schemas/settings.ts';
import { CORPORA, replicate } from './corpus.ts';
import { formatRow } from './stats.ts';
import { benchV1UnderLoad } from './workers-v1.ts';

/**
 * The engine pool: an audit of `count` real samples (every task type of the
 * shipped datasets, interleaved, each copy made distinct) in batches of
 * 1,000, as the CLI and the app send them to runOperation, on a pool of one
 * worker thread and on a pool of one per core (runPooled, the path
 * runOperation takes for such a batch), and in the main thread for
 * reference. Every mode must produce the same results, usage and charge (a
 * digest of each is compared). The event loop's p99 delay during the runs
 * shows whether the main thread stays free to answer other requests (in the
 * main thread the engine yields every ~8 ms; with workers the main thread
 * only hands out slices and puts results together).
 *
 * On a machine shared with other work, wall time says as much about the
 * neighbours as about the pool, so the CPU time of each part is measured
 * too: the main thread (handing out slices, taking results), the workers
 * (the engine), and the rest of the process (V8's GC and compiler threads).
 * From these, "CPU-bound x 1 worker" is what the ratio would be on idle
 * cores if only CPU mattered: a mode takes at least its busiest thread's CPU
 * time (the workers' split evenly) and at least the whole process's CPU time
 * spread over the cores.
 */

const BATCH = 1000;

function corpus(): Sample[] {
  const corpora: Sample[][] = [
    gsm8k(),
    hellaswag(),
    oasst(),
    truthfulQa(),
    commonsenseQa(),
    CORPORA.text(),
  ];
  const longest = Math.max(...corpora.map((c) => c.length));
  const out: Sample[] = [];
  for (let i = 0; i < longest; i++) {
    for (const c of corpora) if (i < c.length) out.push(c[i] as Sample);
  }
  return out;
}

type Run = (request: OperationRequest) => Promise<OperationResult>;

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

interface Mode {
  name: string;
  run: Run;
  /** The pool the mode runs on (none: the main thread). */
  pool: EnginePool | undefined;
  seconds: number;
  /** Wall seconds of each batch, to pair with the other modes' runs of the same batch. */
  batches: number[];
  /** CPU time of the whole process (every thread) during the runs. */
  cpuSeconds: number;
  /** Of which the main thread's, and the pool's workers'. */
  mainCpuSeconds: number;
  workerCpuSeconds: number;
  hash: Hash;
  totals: { input_tokens: number; output_tokens: number; passes: number };
  charge: number;
  loop: ReturnType<typeof monitorEventLoopDelay>;
}

function mode(name: string, run: Run, pool?: EnginePool): Mode {
  return {
    name,
    run,
    pool,
    seconds: 0,
    batches: [],
    cpuSeconds: 0,
    mainCpuSeconds: 0,
    workerCpuSeconds: 0,
    hash: createHash('sha256'),
    totals: { input_tokens: 0, output_tokens: 0, passes: 0 },
    charge: 0,
    loop: monitorEventLoopDelay({ resolution: 5 }),
  };
}

/** One batch in one mode: only the run is timed; the digest is taken after. */
async function batch(m: Mode, samples: Sample[]): Promise<void> {
  const request: OperationRequest = { operation: 'audit', samples, config: { votes: 1 } };
  const workers = (await m.pool?.cpuMicros()) ?? 0;
  m.loop.enable();
  const cpu = process.cpuUsage();
  const main = process.threadCpuUsage();
  const started = performance.now();
  const result = await m.run(request);
  const seconds = (performance.now() - started) / 1000;
  const mainUsed = process.threadCpuUsage(main);
  const used = process.cpuUsage(cpu);
  m.loop.disable();
  m.seconds += seconds;
  m.batches.push(seconds);
  m.cpuSeconds += (used.user + used.system) / 1e6;
  m.mainCpuSeconds += (mainUsed.user + mainUsed.system) / 1e6;
  m.workerCpuSeconds += (((await m.pool?.cpuMicros()) ?? 0) - workers) / 1e6;
  m.hash.update(JSON.stringify(result.data)).update(JSON.stringify(result.counts));
  const byModel = result.usage.byModel();
  for (const usage of Object.values(byModel)) {
    m.totals.input_tokens += usage.input_tokens;
    m.totals.output_tokens += usage.output_tokens;
    m.totals.passes += usage.passes;
  }
  // Charged per batch, as the CLI and the app record it.
  m.charge += chargeMicro(tokenCostMicro(byModel, DEFAULT_SETTINGS.rates));
}

/**
 * Where the pool starts to pay: a batch of n samples in the calling thread
 * vs on the (warm) pool, alternately, median of the repeats. Below
 * MIN_POOLED_SAMPLES runOperation keeps a batch in the calling thread.
 */
async function smallBatches(samples: Sample[], pool: EnginePool): Promise<void> {
  console.log(
    `\nsmall batches: ms per batch, calling thread vs the pool (runOperation pools from ` +
      `${MIN_POOLED_SAMPLES} samples)`,
  );
  const widths = [8, 14, 12, 14];
  console.log(formatRow(['samples', 'in thread ms', 'pooled ms', 'x in thread'], widths));
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
      await runPooled(request, { backend: builtinBackend }, runOperationInThread, pool);
      pooled.push(performance.now() - started);
    }
    const [a, b] = [median(here), median(pooled)];
    console.log(formatRow([n, a.toFixed(2), b.toFixed(2), (a / b).toFixed(2)], widths));
  }
}

export async function benchWorkers(count = 100_000): Promise<void> {
  const cores = availableParallelism();
  console.log(
    `\n## engine pool: audit of ${count.toLocaleString('en-US')} real samples in batches of ` +
      `${BATCH.toLocaleString('en-US')}, 1 worker vs ${cores} (one per core)`,
  );
  console.log(
    '(the modes take turns batch by batch, so that a busy neighbour weighs on each alike; ' +
      'only the runs are timed)',
  );
  const samples = replicate(corpus(), count);
  const script = engineWorkerScript();
  const one = new EnginePool(script, 1);
  const all = new EnginePool(script, cores);
  const backend = { backend: builtinBackend };
  const modes = [
    mode('main thread', (request) => runOperationInThread(request, backend)),
    mode('1 worker', (request) => runPooled(request, backend, runOperationInThread, one), one),
    mode(
      `${cores} workers`,
      (request) => runPooled(request, backend, runOperationInThread, all),
      all,
    ),
  ];
  // Workers started and warmed before the clock starts (they stay between batches).
  const warm = Math.min(4, Math.ceil(count / BATCH));
  for (const m of modes) for (let i = 0; i < warm; i++) await m.run(audit(samples, i));
  for (let i = 0; i * BATCH < samples.length; i++) {
    const slice = samples.slice(i * BATCH, (i + 1) * BATCH);
    // Each mode goes first in turn.
    for (let k = 0; k < modes.length; k++)
      await batch(modes[(i + k) % modes.length] as Mode, slice);
  }

  const [, single] = modes as [Mode, Mode, Mode];
  // cores busy = CPU seconds / seconds: near the worker count on an idle machine; lower means
  // other processes had the cores, and the speedup says more about them than about the pool.
  // x 1 worker (pairs): the median over batches of the two modes' times for that batch, which
  // ran one right after the other, so a neighbour's burst weighs on both.
  const widths = [12, 8, 10, 10, 10, 8, 8, 8, 8, 10, 8, 14];
  console.log(
    formatRow(
      [
        'mode',
        'seconds',
        'samples/s',
        'x 1 worker',
        'x (pairs)',
        'cores busy',
        'µs main',
        'µs work',
        'µs rest',
        'x CPU-bound',
        'p99 ms',
        'results',
      ],
      widths,
    ),
  );
  const perSample = (seconds: number): string => ((seconds * 1e6) / count).toFixed(0);
  const digests = modes.map((m) => m.hash.digest('hex').slice(0, 12));
  const bound = (m: Mode): number =>
    m.pool
      ? Math.max(m.workerCpuSeconds / m.pool.size, m.cpuSeconds / cores)
      : Math.max(m.mainCpuSeconds, m.cpuSeconds / cores);
  modes.forEach((m, i) => {
    const pairs = m.batches.map((seconds, b) => (single.batches[b] as number) / seconds);
    console.log(
      formatRow(
        [
          m.name,
          m.seconds.toFixed(1),
          count / m.seconds,
          (single.seconds / m.seconds).toFixed(2),
          median(pairs).toFixed(2),
          (m.cpuSeconds / m.seconds).toFixed(2),
          perSample(m.mainCpuSeconds),
          perSample(m.workerCpuSeconds),
          perSample(m.cpuSeconds - m.mainCpuSeconds - m.workerCpuSeconds),
          (bound(single) / bound(m)).toFixed(2),
          (m.loop.percentile(99) / 1e6).toFixed(1),
          digests[i] as string,
        ],
        widths,
      ),
    );
  });
  console.log(
    '(µs main / work / rest: CPU µs per sample in the main thread, in the workers, and in the ' +
      "rest of the process: V8's GC and compiler threads)",
  );
  const usage = JSON.stringify(single.totals);
  const identical = modes.every(
    (m, i) =>
      digests[i] === digests[1] && JSON.stringify(m.totals) === usage && m.charge === single.charge,
  );
  console.log(
    `results, usage (${usage}) and charge (${single.charge} micro-USD): ` +
      (identical ? 'identical in every mode' : 'DIFFER between modes'),
  );
  if (!identical) process.exitCode = 1;
  await smallBatches(samples, all);
  await Promise.all([one.close(), all.close()]);
  await benchV1UnderLoad(cores);
}

const audit = (samples: Sample[], i: number): OperationRequest => ({
  operation: 'audit',
  samples: samples.slice(i * BATCH, (i + 1) * BATCH),
  config: { votes: 1 },
});

// `node bench/workers.ts [COUNT]` runs this part alone.
if (import.meta.main) await benchWorkers(Number(process.argv[2] ?? 100_000));
