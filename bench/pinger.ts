import { percentile } from './stats.ts';
import { threadCpuMs } from './thread-cpu.ts';

/** How often the cheap route is asked. */
export const PING_MS = 100;
/** Pings slower than this are logged with their time when BENCH_PING_LOG is set. */
const PING_LOG_MS = 50;

export interface PingPhase {
  name: string;
  seconds: number;
  /** How long each answer took, ms. */
  waits: number[];
  /** How long the server's main thread ran on a CPU meanwhile, ms (NaN: not known). */
  ran: number[];
}

/**
 * A client asking a server's cheap `GET /pricing` every PING_MS while the
 * bench puts it through phases of work: how long each answer took is how
 * long the server's thread was held (plus the request's own ~1 ms). Pings
 * between two phases count in the earlier one. Given the server's process
 * id (Linux), each ping also reads how long the server's main thread ran on
 * a CPU while it waited: a wait the thread did not spend running was spent
 * off the CPU (waiting on the disk, for a core, or for the host to run the
 * machine), not in the server's code.
 */
export class Pinger {
  readonly phases: PingPhase[] = [];
  /** Pings that got no answer (a connection reset by a thread held too long), by wait. */
  readonly failures: number[] = [];
  #current: number[] = [];
  #ran: number[] = [];
  readonly #stop = new AbortController();
  readonly #loop: Promise<void>;

  constructor(baseUrl: string, serverPid?: number) {
    const ranMs = (): number => (serverPid && threadCpuMs(serverPid)) ?? Number.NaN;
    this.#loop = (async () => {
      while (!this.#stop.signal.aborted) {
        const ranBefore = ranMs();
        const sent = performance.now();
        // A thread held past the keep-alive timeout resets the connection: counted, not fatal.
        const answered = await fetch(`${baseUrl}/pricing`)
          .then((res) => res.arrayBuffer())
          .then(
            () => true,
            () => false,
          );
        const took = performance.now() - sent;
        // The monotonic clock a CPU profile of the server stamps its samples with (µs): a slow
        // ping found in the server's profile (NODE_OPTIONS=--cpu-prof, BENCH_PING_LOG=1).
        if (process.env.BENCH_PING_LOG && took > PING_LOG_MS) {
          const at = process.hrtime.bigint() / 1000n - BigInt(Math.round(took * 1000));
          console.error(`slow ping: ${took.toFixed(1)} ms, sent at ${at} µs (monotonic)`);
        }
        this.#current.push(took);
        this.#ran.push(ranMs() - ranBefore);
        if (!answered) this.failures.push(took);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PING_MS - took)));
      }
    })();
  }

  /** Runs `work` as the phase `name`. */
  async phase<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.#current = [];
    this.#ran = [];
    const started = performance.now();
    const result = await work();
    this.phases.push({
      name,
      seconds: (performance.now() - started) / 1000,
      waits: this.#current,
      ran: this.#ran,
    });
    return result;
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
  }

  /**
   * The phases' waits as a table (with how long the server's main thread ran
   * during each phase's worst), the worst of all against the goal, and any
   * failed pings.
   */
  print(goalMs: number): void {
    const ranOf = (ms: number): string => (Number.isNaN(ms) ? '?' : `${ms.toFixed(1)} ms`);
    console.log('| phase | took | pings | p50 wait | p99 wait | worst wait | server ran in it |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    let worst = { wait: 0, ran: Number.NaN };
    for (const { name, seconds, waits, ran } of this.phases) {
      if (waits.length === 0) {
        // Over before a ping was due: nothing measured, not a wait of 0.
        console.log(`| ${name} | ${seconds.toFixed(1)} s | 0 | - | - | - | - |`);
        continue;
      }
      const sorted = [...waits].sort((a, b) => a - b);
      const at = waits.indexOf(Math.max(0, ...waits));
      const phaseWorst = { wait: waits[at] ?? 0, ran: ran[at] ?? Number.NaN };
      if (phaseWorst.wait > worst.wait) worst = phaseWorst;
      console.log(
        `| ${name} | ${seconds.toFixed(1)} s | ${waits.length} | ` +
          `${percentile(sorted, 50).toFixed(1)} ms | ${percentile(sorted, 99).toFixed(1)} ms | ` +
          `${phaseWorst.wait.toFixed(1)} ms | ${ranOf(phaseWorst.ran)} |`,
      );
    }
    console.log(
      `worst wait of all: ${worst.wait.toFixed(1)} ms (goal ${goalMs} ms); ` +
        `the server's main thread ran ${ranOf(worst.ran)} of it`,
    );
    if (this.failures.length > 0) {
      console.log(`pings that failed (connection reset): ${this.failures.length}`);
    }
  }
}
