import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileOperationCommand } from '../src-main/cli/file-ops.ts';
import { fitWorkersToFiles, passFiles, tuneV8ForWorkers } from '../src-main/cli/pool-ahead.ts';
import { mergeCommand } from '../src-main/cli/merge.ts';
import { closeEnginePool, filePassPool } from '../src-main/service/runs/pool/pooled.ts';
import { CORPORA } from './corpus.ts';
import { formatRow } from './stats.ts';

/**
 * The whole pass of `svc audit FILE --report` (reading, mapping, the dataset
 * checks, the engine, serializing, writing), each in a process of its own
 * (bench/file-pass-child.ts; its modules loaded before it), over ROWS text
 * samples of 3-6 real sentences each (distinct paragraphs): the row-at-a-time
 * pass (SVC_FILE_PASS=rows: the engine alone on the workers) against the
 * sliced pass (service/file-pass: everything per row on the workers), with 1
 * worker and with one per core. What it prints per 100,000 rows is CPU time
 * by thread: the main thread's is what no number of cores shortens, so
 * Amdahl's law bounds the speed-up on N cores at (main + workers) / (main +
 * workers / N). `other` is the rest of the process (V8's GC and compiler
 * threads, the language identification worker: a fixed-size sample), and
 * the process's peak RSS during each pass. Output and report are checked
 * identical in every mode.
 */

function sentences(): string[] {
  const out: string[] = [];
  for (const sample of CORPORA.text()) {
    if (sample.task_type !== 'text') continue;
    for (const s of sample.text.split(/(?<=[.!?])\s+/))
      if (s.length > 30 && s.length < 400) out.push(s);
  }
  return out;
}

/** Seeded (mulberry32): the same file every run. */
export function writeTexts(path: string, rows: number): void {
  const pool = sentences();
  let seed = 0x2f6b1c3;
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    const k = 3 + Math.floor(random() * 4);
    const text = Array.from({ length: k }, () => pool[Math.floor(random() * pool.length)]).join(
      ' ',
    );
    lines.push(JSON.stringify({ task_type: 'text', text }));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

const sha = (path: string): string =>
  createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12);

export interface Measured {
  mode: string;
  wall: number;
  main: number;
  workers: number;
  other: number;
  /** The process's largest resident set during the pass, MiB. */
  peakRss: number;
  output: string;
}

/**
 * The process's resident set at its largest while `run` runs, sampled every
 * 50 ms (the engine's workers live in this process: their heaps count).
 * Linux's VmHWM would keep the largest of the whole bench, every mode before.
 */
async function peakRssOf<T>(run: () => Promise<T>): Promise<[T, number]> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50).unref();
  try {
    const result = await run();
    return [result, Math.max(peak, process.memoryUsage.rss()) / 2 ** 20];
  } finally {
    clearInterval(timer);
  }
}

export async function measure(
  dir: string,
  input: string,
  mode: 'rows' | 'slices',
  workers: number,
): Promise<Measured> {
  await closeEnginePool();
  const env = {
    SVC_ENGINE_WORKERS: process.env.SVC_ENGINE_WORKERS,
    SVC_FILE_PASS: process.env.SVC_FILE_PASS,
  };
  process.env.SVC_ENGINE_WORKERS = String(workers);
  process.env.SVC_FILE_PASS = mode;
  // As `svc audit` does before its first thread (this child measures one pass).
  fitWorkersToFiles(passFiles('pass', [input]));
  tuneV8ForWorkers();
  const out = join(dir, `${mode}-${workers}.jsonl`);
  const report = join(dir, `${mode}-${workers}.json`);
  const data = mkdtempSync(join(dir, 'data-'));
  const main0 = process.threadCpuUsage();
  const all0 = process.cpuUsage();
  const started = performance.now();
  let peakRss: number;
  try {
    [, peakRss] = await peakRssOf(() =>
      fileOperationCommand('audit', [input, '--out', out, '--report', report, '--data-dir', data]),
    );
  } finally {
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  }
  const wall = (performance.now() - started) / 1000;
  const mainUsage = process.threadCpuUsage(main0);
  const allUsage = process.cpuUsage(all0);
  const main = (mainUsage.user + mainUsage.system) / 1e6;
  const workerCpu = ((await filePassPool()?.cpuMicros()) ?? 0) / 1e6;
  const all = (allUsage.user + allUsage.system) / 1e6;
  await closeEnginePool();
  return {
    mode: `${mode}, ${workers} worker${workers === 1 ? '' : 's'}`,
    wall,
    main,
    workers: workerCpu,
    other: Math.max(0, all - main - workerCpu),
    peakRss,
    output: `${sha(out)} ${sha(report)}`,
  };
}

const SHARDS = 4;

/** The same file as SHARDS shard runs (here, one after another): their parts. */
export async function runShards(dir: string, input: string): Promise<string[]> {
  const parts: string[] = [];
  fitWorkersToFiles(passFiles('pass', [input]));
  tuneV8ForWorkers();
  for (let shard = 0; shard < SHARDS; shard++) {
    const part = join(dir, `part-${shard}.jsonl`);
    const data = mkdtempSync(join(dir, 'data-'));
    await fileOperationCommand('audit', [
      input,
      '--shard',
      `${shard}/${SHARDS}`,
      '--out',
      part,
      '--data-dir',
      data,
    ]);
    parts.push(part);
  }
  await closeEnginePool();
  return parts;
}

interface MergeMeasured {
  wall: number;
  main: number;
  workers: number;
  /** Every thread of the process: V8's helpers too. */
  all: number;
  output: string;
}

/** `svc merge` of the parts: its wall time and its main thread's CPU. */
export async function measureMerge(
  dir: string,
  parts: readonly string[],
  workers: number,
): Promise<MergeMeasured> {
  const saved = process.env.SVC_ENGINE_WORKERS;
  process.env.SVC_ENGINE_WORKERS = String(workers);
  const out = join(dir, 'merged.jsonl');
  fitWorkersToFiles(passFiles('merge', [out, ...parts]));
  tuneV8ForWorkers();
  const report = join(dir, 'merged.json');
  const data = mkdtempSync(join(dir, 'data-'));
  const main0 = process.threadCpuUsage();
  const all0 = process.cpuUsage();
  const started = performance.now();
  try {
    await mergeCommand([out, ...parts, '--report', report, '--data-dir', data]);
  } finally {
    if (saved === undefined) Reflect.deleteProperty(process.env, 'SVC_ENGINE_WORKERS');
    else process.env.SVC_ENGINE_WORKERS = saved;
  }
  const wall = (performance.now() - started) / 1000;
  const usage = process.threadCpuUsage(main0);
  const allUsage = process.cpuUsage(all0);
  const workerCpu = ((await filePassPool()?.cpuMicros()) ?? 0) / 1e6;
  await closeEnginePool();
  return {
    wall,
    main: (usage.user + usage.system) / 1e6,
    workers: workerCpu,
    all: (allUsage.user + allUsage.system) / 1e6,
    output: `${sha(out)} ${sha(report)}`,
  };
}

/** What a child process of the bench measures (bench/file-pass-child.ts). */
export type ChildTask =
  | { kind: 'pass'; dir: string; input: string; mode: 'rows' | 'slices'; workers: number }
  | { kind: 'shards'; dir: string; input: string }
  | { kind: 'merge'; dir: string; parts: string[]; workers: number };

/** What a child measured (as its kind's function returned it), and whether it ran on one core. */
interface ChildResult {
  result: unknown;
  pinned: boolean;
}

/**
 * Runs a measurement in a process of its own, as each `svc audit` and `svc
 * merge` runs: in one process, the pass measured first left the next a heap
 * to collect, and the main thread's garbage collection took a tenth or more
 * of what the main thread was measured at. `oneCore`: the child runs on one
 * core (`taskset`, util-linux; where it is missing, on every core, and the
 * result says so), where Node's `availableParallelism()` is 1, as on a
 * one-core machine.
 */
function inChild(task: ChildTask, oneCore = false): Promise<ChildResult> {
  const args = [join(import.meta.dirname, 'file-pass-child.ts'), JSON.stringify(task)];
  // The compile cache `svc` starts with (bin/svc.js), set up by bench/run.ts, is inherited.
  const env = process.env;
  const run = (pinned: boolean): Promise<ChildResult> =>
    new Promise((resolve, reject) => {
      const child = pinned
        ? spawn('taskset', ['--cpu-list', firstAllowedCpu(), process.execPath, ...args], {
            stdio: ['ignore', 'pipe', 'inherit'],
            env,
          })
        : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
      let stdout = '';
      let failed = false;
      child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
      child.once('error', (error: NodeJS.ErrnoException) => {
        failed = true;
        if (pinned && error.code === 'ENOENT') resolve(run(false));
        else reject(error);
      });
      child.once('exit', (code, signal) => {
        if (failed) return;
        const line = stdout.split('\n').find((l) => l.startsWith(RESULT));
        if (code === 0 && line) {
          resolve({ result: JSON.parse(line.slice(RESULT.length)) as unknown, pinned });
        } else reject(new Error(`the bench's child exited with ${signal ?? code}`));
      });
    });
  return run(oneCore);
}

/** The first CPU this process may run on (a container's cpuset may leave out CPU 0). */
function firstAllowedCpu(): string {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    return /^Cpus_allowed_list:\s*(\d+)/m.exec(status)?.[1] ?? '0';
  } catch {
    return '0';
  }
}

/** How a child's result line starts. */
export const RESULT = 'file-pass-result ';

/**
 * The least wall time a pass could take on idle cores if only CPU counted
 * (as bench/workers.ts): its busiest thread's CPU (the workers' split evenly
 * between them), and the whole process's CPU spread over the cores. With one
 * worker the GC and compiler threads run beside it on another core; with one
 * per core they take a share of the workers' cores.
 */
const cpuBound = (m: Measured, workers: number, cores: number): number =>
  Math.max(m.main, m.workers / workers, (m.main + m.workers + m.other) / cores);

const amdahl = (m: Measured, cores: number): number =>
  (m.main + m.workers) / (m.main + m.workers / cores);

export async function benchFilePass(rows: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-pass-'));
  const cores = availableParallelism();
  try {
    const input = join(dir, 'texts.jsonl');
    writeTexts(input, rows);
    console.log(
      `\n## file pass: svc audit of ${rows.toLocaleString('en-US')} distinct texts with --report, ` +
        `CPU seconds per 100,000 rows by thread (this machine: ${cores} cores)`,
    );
    const widths = [22, 8, 8, 8, 8, 10, 10, 10, 14, 26];
    console.log(
      formatRow(
        [
          'pass',
          'wall s',
          'main',
          'workers',
          'other',
          'Amdahl 2',
          'Amdahl 16',
          'Amdahl 64',
          'peak RSS MiB',
          'output, report',
        ],
        widths,
      ),
    );
    const runs: Measured[] = [];
    for (const [mode, workers] of [
      ['rows', cores],
      ['slices', 1],
      ['slices', cores],
    ] as const) {
      const m = (await inChild({ kind: 'pass', dir, input, mode, workers })).result as Measured;
      runs.push(m);
      const per = 100_000 / rows;
      console.log(
        formatRow(
          [
            m.mode,
            (m.wall * per).toFixed(1),
            (m.main * per).toFixed(2),
            (m.workers * per).toFixed(2),
            (m.other * per).toFixed(2),
            `${amdahl(m, 2).toFixed(2)}x`,
            `${amdahl(m, 16).toFixed(2)}x`,
            `${amdahl(m, 64).toFixed(2)}x`,
            m.peakRss.toFixed(0),
            m.output,
          ],
          widths,
        ),
      );
    }
    const parts = (await inChild({ kind: 'shards', dir, input })).result as string[];
    const merged = (await inChild({ kind: 'merge', dir, parts, workers: cores }))
      .result as MergeMeasured;
    const singleWall = (runs[2] as Measured).wall;
    const per100k = (seconds: number): string => ((seconds * 100_000) / rows).toFixed(2);
    console.log(
      `svc merge of ${SHARDS} parts: ${merged.wall.toFixed(1)} s wall ` +
        `(${((merged.wall / singleWall) * 100).toFixed(0)}% of the single run's ` +
        `${singleWall.toFixed(1)} s), main thread ${per100k(merged.main)} s ` +
        `CPU per 100,000 rows, workers ${per100k(merged.workers)} s; ` +
        `output and report as the single run's: ${merged.output === runs[0]?.output ? 'yes' : 'NO'}`,
    );
    // The goal's other half: on one core (one worker), every thread's CPU counted.
    const pinnedMerge = await inChild({ kind: 'merge', dir, parts, workers: 1 }, true);
    const alone = pinnedMerge.result as MergeMeasured;
    const { pinned } = pinnedMerge;
    console.log(
      `svc merge ${pinned ? 'on one core' : 'with 1 worker (no taskset: every core)'}: ` +
        `${per100k(alone.wall)} s wall per 100,000 rows (goal 1 s), CPU of all its threads ` +
        `${per100k(alone.all)} s (main ${per100k(alone.main)}, ` +
        // On one core the merge starts no worker (service/threads/one-core.ts).
        (alone.workers > 0 ? `worker ${per100k(alone.workers)}, ` : 'no worker, ') +
        `V8's helpers and the rest ${per100k(Math.max(0, alone.all - alone.main - alone.workers))}); ` +
        `output as the single run's: ${alone.output === runs[0]?.output ? 'yes' : 'NO'}`,
    );
    if (alone.output !== runs[0]?.output) process.exitCode = 1;
    if (merged.output !== runs[0]?.output) process.exitCode = 1;
    const identical = runs.every((m) => m.output === runs[0]?.output);
    console.log(`output and report identical in every mode: ${identical ? 'yes' : 'NO'}`);
    const [one, many] = [runs[1], runs[2]] as [Measured, Measured];
    console.log(
      `sliced pass, ${cores} workers against 1: ${(one.wall / many.wall).toFixed(2)}x wall ` +
        `(a machine shared with other work slows either), ` +
        `${(cpuBound(one, 1, cores) / cpuBound(many, cores, cores)).toFixed(2)}x CPU-bound`,
    );
    // Amdahl counts no cost a worker pays for being one: its start (modules, tables) and its
    // own warm-up (V8 compiles the engine again in every worker), which a sixteenth of the rows
    // pays as much as all of them. A sixteenth run alone with one worker on this machine is
    // about what each of 16 workers has before it: its wall time bounds the 16-core speed-up.
    const sixteenth = join(dir, 'sixteenth.jsonl');
    writeTexts(sixteenth, Math.ceil(rows / 16));
    const share = (
      await inChild({ kind: 'pass', dir, input: sixteenth, mode: 'slices', workers: 1 })
    ).result as Measured;
    console.log(
      `a sixteenth of the rows (${Math.ceil(rows / 16).toLocaleString('en-US')}) alone, ` +
        `1 worker: ${share.wall.toFixed(2)} s wall (its worker ${share.workers.toFixed(2)} s CPU, ` +
        `a sixteenth of the whole's ${(one.workers / 16).toFixed(2)} s): 16 workers on 16 cores ` +
        `at most ${(one.wall / share.wall).toFixed(2)}x the 1-worker run (Amdahl, which counts no ` +
        `worker's own start and warm-up: ${amdahl(one, 16).toFixed(2)}x for the same run)`,
    );
    if (!identical) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
