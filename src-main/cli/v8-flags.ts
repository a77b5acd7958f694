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
