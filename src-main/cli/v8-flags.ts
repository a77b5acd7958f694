/**
 * V8 flags for `svc serve`. Node sizes its heap from the machine's memory:
 * on a 24 GiB machine the young generation grows to 128 MiB under load, and
 * V8 keeps it committed (measured with `v8.getHeapSpaceStatistics()` and a
 * forced GC; `bench/memory.ts`). A 4 MiB semi-space keeps the server near
 * its warm-up size: 20,000 mixed requests ended at 177 MiB, 1.02x the first
 * 1,000, against 253 MiB on V8's defaults. V8's flags hold for every thread
 * of the process, the dataset scan's and the engine's workers too, and a
 * worker's `resourceLimits` do not override them. So no flag that costs
 * those threads throughput: `--heap-growing-percent=20`, here until stop 43,
 * made a scan's large heap collected every 20% of growth, and with the small
 * semi-space a 50,000-row scan took 12-40% more CPU of all threads (four
 * pairs of runs); without it the server's memory in the bench above was the
 * same. The flags must be given at start-up (V8 reads them when the heap is
 * made), hence the re-exec in `bin/svc.js`. `SVC_V8_FLAGS` replaces them;
 * `SVC_V8_DEFAULTS=1` runs on V8's defaults.
 */
export const SERVE_V8_FLAGS = ['--max-semi-space-size=4'] as const;

/** The flags `svc serve` should restart with; none when given already, or turned off. */
export function serveV8Flags(
  argv: readonly string[],
  execArgv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  if (argv[0] !== 'serve' || env.SVC_V8_DEFAULTS === '1') return [];
  const wanted =
    env.SVC_V8_FLAGS !== undefined
      ? env.SVC_V8_FLAGS.split(/\s+/).filter(Boolean)
      : [...SERVE_V8_FLAGS];
  // Once restarted, the flags are in execArgv: never restart twice.
  if (wanted.every((flag) => execArgv.includes(flag))) return [];
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (
    env.SVC_V8_FLAGS === undefined &&
    given.some((f) => /^--max[-_]semi[-_]space[-_]size/.test(f))
  )
    return [];
  return wanted;
}

/**
 * V8 flags for a batch command (`svc audit|fix|refine|merge`) whose engine
 * workers fill the machine's cores. V8 optimizes a hot function on its
 * platform's threads (four in Node, shared by every thread of the process)
 * while the function goes on running unoptimized: worth it with a core to
 * spare. With a worker on every core there is none, and those compiles took
 * the workers' cores and cost more CPU than compiling in place. 2 workers on
 * 2 cores, alternated runs: `svc audit` of 12,500 texts 2.50-2.60 -> 2.39-2.50 s
 * (the workers' background compiles 1.4 s of CPU -> 0.4 s; their own threads
 * +0.85 s), 100,000 texts 7.8-8.3 -> 7.7-8.0 s; `svc merge` of 100,000 rows
 * 1.24-1.30 -> 1.11-1.18 s, its CPU 2.0 -> 1.7 s. With one worker on two cores,
 * compiling in place was slower (100,000 texts 11.7-12.1 -> 12.2-13.5 s): only
 * when the workers fill the cores. On many cores the four threads serve every
 * worker's compiles, so the queue grows with the workers. V8 reads the flag
 * when a thread's isolate is made: it is set before any worker starts, and
 * the main thread's own isolate keeps compiling in the background
 * (pool-ahead.test.ts traces both). Not for `svc serve`: a fresh dataset's
 * scan and index threads with it were ready no sooner (200,000 rows, 14.87x
 * the plain insert without, 15.21x with; the helpers' CPU 3.9 -> 2.9 s, the
 * scan's 16.2 -> 18.2 s).
 */
export const FULL_POOL_V8_FLAGS = ['--no-concurrent-recompilation'] as const;

/** The flags a batch command sets before its workers start (none if given or turned off). */
export function fullPoolV8Flags(
  workers: number,
  cores: number,
  execArgv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  if (env.SVC_V8_DEFAULTS === '1' || workers < cores) return [];
  // Given on the command line, it is left as given (Node refuses it in NODE_OPTIONS).
  if (execArgv.some((flag) => /^--(no[-_])?concurrent[-_]recompilation$/.test(flag))) return [];
  return [...FULL_POOL_V8_FLAGS];
}
