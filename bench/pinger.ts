import { percentile } from './stats.ts';
import { ranBetween, schedstatMs, threadsRanMs } from './thread-cpu.ts';

/** How often the cheap route is asked. */
export const PING_MS = 100;
/**
 * Pings slower than this are logged, with their time and what the server's
 * threads ran meanwhile, when BENCH_PING_LOG is set (to a number of ms above
 * 1: that bound instead).
 */
const PING_LOG_MS =
  Number(process.env.BENCH_PING_LOG) > 1 ? Number(process.env.BENCH_PING_LOG) : 50;

export interface PingPhase {
  name: string;
  seconds: number;
  /** How long each answer took, ms. */
  waits: number[];
  /** How long the server's main thread ran on a CPU meanwhile, ms (NaN: not known). */
  ran: number[];
  /** How long it was ready to run with no CPU free meanwhile, ms (NaN: not known). */
  queued: number[];
  /** How long this client's own thread was ready to run with no CPU free, ms (NaN: not known). */
  clientQueued: number[];
}

/**
 * A client asking a server's cheap `GET /pricing` every PING_MS while the
 * bench puts it through phases of work: how long each answer took is how
 * long the server's thread was held (plus the request's own ~1 ms). Pings
 * between two phases count in the earlier one, those before the first in a
 * phase of their own. Given the server's process
 * id (Linux), each ping also reads how long the server's main thread ran on
 * a CPU while it waited: a wait the thread did not spend running was spent
 * off the CPU (waiting on the disk, for a core, or for the host to run the
 * machine), not in the server's code.
 */
export class Pinger {
  readonly phases: PingPhase[] = [];
  /** Pings that got no answer (a connection reset by a thread held too long), by wait. */
  readonly failures: number[] = [];
  /** The pings of the phase under way (or, before the first, of none yet). */
  #pings = Pinger.#none();
  readonly #stop = new AbortController();
  readonly #loop: Promise<void>;

  constructor(baseUrl: string, serverPid?: number) {
    const unknown = { ran: Number.NaN, queued: Number.NaN };
    const server = (): { ran: number; queued: number } =>
      (serverPid && schedstatMs(serverPid)) || unknown;
    const client = (): { ran: number; queued: number } => schedstatMs(process.pid) ?? unknown;
    this.#loop = (async () => {
      // Untimed: the client's first request loads its HTTP stack and connects, no wait of the server's.
      await fetch(`${baseUrl}/pricing`).then(
        (res) => res.arrayBuffer(),
        () => undefined,
      );
      while (!this.#stop.signal.aborted) {
        const logging = (process.env.BENCH_PING_LOG ?? '') !== '';
        const threadsBefore =
          logging && serverPid !== undefined ? threadsRanMs(serverPid) : undefined;
        const serverBefore = server();
        const clientBefore = client();
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
        if (logging && took > PING_LOG_MS) {
          const at = process.hrtime.bigint() / 1000n - BigInt(Math.round(took * 1000));
          const threads =
            threadsBefore && serverPid !== undefined
              ? `; the server's threads ran: ${ranBetween(threadsBefore, threadsRanMs(serverPid))}`
              : '';
          console.error(`slow ping: ${took.toFixed(1)} ms, sent at ${at} µs (monotonic)${threads}`);
        }
        const serverAfter = server();
        this.#pings.waits.push(took);
        this.#pings.ran.push(serverAfter.ran - serverBefore.ran);
        this.#pings.queued.push(serverAfter.queued - serverBefore.queued);
        this.#pings.clientQueued.push(client().queued - clientBefore.queued);
        if (!answered) this.failures.push(took);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PING_MS - took)));
      }
    })();
  }

  static #none(): Omit<PingPhase, 'name' | 'seconds'> {
    return { waits: [], ran: [], queued: [], clientQueued: [] };
  }

  /** When the pinger started: pings before the first phase count in a phase of their own. */
  readonly #created = performance.now();

  /** The pings so far as the phase `name`, begun at `started`; the next ones start anew. */
  #close(name: string, started: number): void {
    this.phases.push({ name, seconds: (performance.now() - started) / 1000, ...this.#pings });
    this.#pings = Pinger.#none();
  }

  /** Runs `work` as the phase `name`. */
  async phase<T>(name: string, work: () => Promise<T>): Promise<T> {
    if (this.phases.length === 0 && this.#pings.waits.length > 0) {
      this.#close('before the first step', this.#created);
    }
    this.#pings = Pinger.#none();
    const started = performance.now();
    const result = await work();
    this.#close(name, started);
    return result;
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
  }

  /**
   * The phases' waits as a table (with, for each phase's worst, how long the
   * server's main thread ran in it, how long it waited for a CPU, and how long
   * this client did), the worst of all against the goal, and any failed pings.
   * What is left of a wait beyond these is time the server's thread slept
   * (the disk, a lock) or the client's did.
   */
  print(goalMs: number): void {
    const ms = (value: number): string => (Number.isNaN(value) ? '?' : `${value.toFixed(1)} ms`);
    console.log(
      '| phase | took | pings | over 20 ms | p50 wait | p99 wait | worst wait | server ran in it | ' +
        'server waited for a CPU | client waited for a CPU |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    type Worst = { wait: number; ran: number; queued: number; clientQueued: number };
    let worst: Worst = { wait: 0, ran: Number.NaN, queued: Number.NaN, clientQueued: Number.NaN };
    for (const { name, seconds, waits, ran, queued, clientQueued } of this.phases) {
      if (waits.length === 0) {
        // Over before a ping was due: nothing measured, not a wait of 0.
        console.log(`| ${name} | ${seconds.toFixed(1)} s | 0 | - | - | - | - | - | - | - |`);
        continue;
      }
      const sorted = [...waits].sort((a, b) => a - b);
      const at = waits.indexOf(Math.max(0, ...waits));
      const phaseWorst: Worst = {
        wait: waits[at] ?? 0,
        ran: ran[at] ?? Number.NaN,
        queued: queued[at] ?? Number.NaN,
        clientQueued: clientQueued[at] ?? Number.NaN,
      };
      if (phaseWorst.wait > worst.wait) worst = phaseWorst;
      console.log(
        `| ${name} | ${seconds.toFixed(1)} s | ${waits.length} | ` +
          `${waits.filter((wait) => wait > 20).length} | ` +
          `${percentile(sorted, 50).toFixed(1)} ms | ${percentile(sorted, 99).toFixed(1)} ms | ` +
          `${ms(phaseWorst.wait)} | ${ms(phaseWorst.ran)} | ${ms(phaseWorst.queued)} | ` +
          `${ms(phaseWorst.clientQueued)} |`,
      );
    }
    console.log(
      `worst wait of all: ${worst.wait.toFixed(1)} ms (goal ${goalMs} ms); ` +
        `the server's main thread ran ${ms(worst.ran)} of it and waited ${ms(worst.queued)} ` +
        `for a CPU; this client waited ${ms(worst.clientQueued)} for one`,
    );
    if (this.failures.length > 0) {
      console.log(`pings that failed (connection reset): ${this.failures.length}`);
    }
  }
}
