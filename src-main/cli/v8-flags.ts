/**
 * V8 flags for `svc serve`. Node sizes its heap from the machine's memory:
 * on a 24 GiB machine the young generation grows to 128 MiB under load and
 * the old space to about 3 times what is live, and V8 keeps both committed,
 * so the server's RSS climbed 1.6x over 20,000 requests while the live heap
 * stayed near 50-100 MiB (measured with `v8.getHeapSpaceStatistics()` and a
 * forced GC; `bench/memory.ts`). A 4 MiB semi-space and an old space grown
 * by 20% at a time keep it near its warm-up size (1.05x) with no loss of
 * throughput in the same bench. The flags must be given at start-up (V8 reads
 * them when the heap is made), hence the re-exec in `bin/svc.js`.
 * `SVC_V8_FLAGS` replaces them; `SVC_V8_DEFAULTS=1` runs on V8's defaults.
 */
export const SERVE_V8_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=20'] as const;

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
