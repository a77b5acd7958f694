import { percentile } from './stats.ts';

/** How often the cheap route is asked. */
export const PING_MS = 100;

export interface PingPhase {
  name: string;
  seconds: number;
  /** How long each answer took, ms. */
  waits: number[];
}

/**
 * A client asking a server's cheap `GET /pricing` every PING_MS while the
 * bench puts it through phases of work: how long each answer took is how
 * long the server's thread was held (plus the request's own ~1 ms). Pings
 * between two phases count in the earlier one.
 */
export class Pinger {
  readonly phases: PingPhase[] = [];
  /** Pings that got no answer (a connection reset by a thread held too long), by wait. */
  readonly failures: number[] = [];
  #current: number[] = [];
  readonly #stop = new AbortController();
  readonly #loop: Promise<void>;

  constructor(baseUrl: string) {
    this.#loop = (async () => {
      while (!this.#stop.signal.aborted) {
        const sent = performance.now();
        // A thread held past the keep-alive timeout resets the connection: counted, not fatal.
        const answered = await fetch(`${baseUrl}/pricing`)
          .then((res) => res.arrayBuffer())
          .then(
            () => true,
            () => false,
          );
        const took = performance.now() - sent;
        this.#current.push(took);
        if (!answered) this.failures.push(took);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PING_MS - took)));
      }
    })();
  }

  /** Runs `work` as the phase `name`. */
  async phase<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.#current = [];
    const started = performance.now();
    const result = await work();
    this.phases.push({ name, seconds: (performance.now() - started) / 1000, waits: this.#current });
    return result;
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
  }

  /** The phases' waits as a table, the worst of all against the goal, and any failed pings. */
  print(goalMs: number): void {
    console.log('| phase | took | pings | p50 wait | p99 wait | worst wait |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const { name, seconds, waits } of this.phases) {
      const sorted = [...waits].sort((a, b) => a - b);
      console.log(
        `| ${name} | ${seconds.toFixed(1)} s | ${waits.length} | ` +
          `${percentile(sorted, 50).toFixed(1)} ms | ${percentile(sorted, 99).toFixed(1)} ms | ` +
          `${(sorted.at(-1) ?? 0).toFixed(1)} ms |`,
      );
    }
    const worst = Math.max(0, ...this.phases.flatMap((p) => p.waits));
    console.log(`worst wait of all: ${worst.toFixed(1)} ms (goal ${goalMs} ms)`);
    if (this.failures.length > 0) {
      console.log(`pings that failed (connection reset): ${this.failures.length}`);
    }
  }
}
